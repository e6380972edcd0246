/* Calls work of libver.so: the default version VER_2, or VER_1 when
 * built with -DOLD (.symver picks it, as a program linked against an old
 * library would have); passes apply a callback it calls, and keep one
 * it keeps. */
#ifdef OLD
__asm__(".symver work, work@VER_1");
#endif
int work(int n);

int use_work(int n)
{
	return work(n) + 1;
}

int apply(int (*fn)(int), int n);
void keep(int (*fn)(int));

static int cb_big(int n)
{
	volatile char buf[2000];

	buf[n & 1023] = (char)n;
	return buf[n & 1023];
}

static int cb_kept(int n)
{
	return n + 1;
}

int use_apply(int n)
{
	keep(cb_kept);
	return apply(cb_big, n) + 1;
}

int main(int argc, char **argv)
{
	(void)argv;
	return (use_work(argc) + use_apply(argc)) & 1;
}
