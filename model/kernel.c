/*
 * kernel.c - the names the kernel's SYSCALL_DEFINEn macros give the
 * functions sys_call_table points at.  callgraph/ reads them off the
 * symbol table (aliases included), analysis/ off function names.
 */
#include "stackprof.h"

#include <string.h>

bool sp_syscall_wrapper_name(const char *s)
{
	static const char *const prefixes[] = {
		"__x64_sys_", "__ia32_sys_", "__ia32_compat_sys_", "__x64_compat_sys_",
		"__arm64_sys_", "__arm64_compat_sys_", "__riscv_sys_", "__s390x_sys_",
		"__s390_sys_",
	};
	size_t i;

	for (i = 0; s && i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (!strncmp(s, prefixes[i], strlen(prefixes[i])))
			return true;
	return false;
}
