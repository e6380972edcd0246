/* kernel.c - the "kernel" image the module test links against: functions
 * that the relocatable modules call by name. */
#include <string.h>

#define EXPORT __attribute__((used, noinline))

volatile int core_sink;

#ifdef RETHUNK
/* as arch/x86/lib/retpoline.S defines it: a label, not a function */
__asm__(".text\n.globl __x86_return_thunk\n__x86_return_thunk:\n\tret\n\tint3\n");
#endif

EXPORT void core_fill(char *buf, int n)
{
	char tmp[200];

	memset(tmp, n, sizeof(tmp));
	for (int i = 0; i < n && i < (int)sizeof(tmp); i++)
		buf[i] = tmp[i];
	core_sink += buf[0];
}

EXPORT int core_log(const char *msg, int level)
{
	char line[320];

	core_fill(line, level);
	return (int)strlen(msg) + line[level & 63];
}

int main(void)
{
	return core_log("boot", 1) < 0;
}
