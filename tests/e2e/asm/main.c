/* main.c - the C side of t1010: calls the functions of frames.S */
long asm_leaf(long x);
long asm_caller(long x);
long asm_fp(long x);
long c_leaf(long x);

long c_leaf(long x)
{
	volatile char buf[100];

	buf[0] = (char)x;
	return buf[0];
}

int main(int argc, char **argv)
{
	(void)argv;
	return asm_leaf(argc) + asm_caller(argc) + asm_fp(argc) == 0;
}
