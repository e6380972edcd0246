/* other.c - a second module: calls into the first one and the core. */
int modb_work(int n);
int core_log(const char *msg, int level);

volatile int other_sink;

long __x64_sys_other(int n)
{
	char buf[48];

	buf[0] = (char)n;
	other_sink += modb_work(buf[0]);
	other_sink += core_log(buf, n);
	return other_sink;
}

/* as SYSCALL_DEFINE0(ping) expands: the table's name is only an alias */
long __do_sys_ping(void)
{
	char buf[24];

	buf[0] = 3;
	return core_log(buf, buf[0]);
}
long __x64_sys_ping(void) __attribute__((alias("__do_sys_ping")));
