/*
 * export.h - EXPORT_SYMBOL as Linux 6.1 makes it for PREL32 relocations
 * (include/linux/export.h): a kernel_symbol { value, name, namespace }
 * of 32-bit offsets labelled __ksymtab_NAME in ___ksymtab+NAME; nothing
 * with NO_KSYMTAB (a program, not a kernel).
 */
#ifndef KEXPORT_EXPORT_H
#define KEXPORT_EXPORT_H

#ifdef NO_KSYMTAB
#define EXPORT_SYMBOL(sym)
#else
#define EXPORT_SYMBOL(sym) \
	__asm__(".section \"___ksymtab+" #sym "\", \"a\"\n.balign 4\n__ksymtab_" #sym ":\n" \
		".long " #sym " - .\n.long 0\n.long 0\n.previous\n")
#endif

#endif
