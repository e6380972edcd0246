/* hand_main.c - the C side of t1030: calls the functions of hand.S */
long h_leaf(long x);
long h_inherit(long x);
long h_sls(long x);
long h_irqsave(long x);
long h_fp(long x);
long h_other(long x);

static long on_hook(long x)
{
	return x + 1;
}

long (*hook)(long) = on_hook;

int main(int argc, char **argv)
{
	(void)argv;
	return (int)(h_sls(argc) + h_sls(0) + h_irqsave(argc) + h_fp(argc) +
		     h_other(argc)) == 0;
}
