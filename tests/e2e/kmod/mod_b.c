/* mod_b.c - linked with mod_a.c into one relocatable (ld -r). */
int core_log(const char *msg, int level);

volatile int modb_sink;

int modb_work(int n)
{
	char buf[256];

	for (int i = 0; i < n && i < 256; i++)
		buf[i] = (char)i;
	modb_sink += core_log(buf, n);
	return buf[n & 255];
}
