/* Calls work of libver.so: the default version VER_2, or VER_1 when
 * built with -DOLD (.symver picks it, as a program linked against an old
 * library would have). */
#ifdef OLD
__asm__(".symver work, work@VER_1");
#endif
int work(int n);

int use_work(int n)
{
	return work(n) + 1;
}

int main(int argc, char **argv)
{
	(void)argv;
	return use_work(argc) & 1;
}
