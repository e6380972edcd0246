/*
 * hand.S - x86-64 functions with an ORC table written by hand, for
 * t1030: after every instruction that moves %rsp, a row says where the
 * caller's stack pointer now is, as objtool would (arch/x86/include/asm/
 * orc_types.h of Linux 6.1: s16 sp_offset, s16 bp_offset, then sp_reg:4
 * bp_reg:4 type:2 end:1).  t1030 adds the frames up from the instructions
 * alone (8 for the return address, 8 per push or pushf, the constants
 * subtracted from %rsp, up to the first ret) and compares with stackprof.
 *
 * The CFI says the same, except in h_irqsave: its "pushf; pop" stands
 * for a paravirt irq-save site, which the compiler's CFI does not see and
 * objtool's ORC does, so ORC must win by those 8 bytes.
 */
#define UNDEF	0
#define BP	4
#define SP	5

/* one row: from label `at` on, the CFA is reg + off */
.macro orc at:req, reg:req, off:req, type=0, end=0
	.pushsection .orc_unwind_ip, "a"
	.long	\at - .
	.popsection
	.pushsection .orc_unwind, "a"
	.short	\off
	.short	0
	.short	\reg | (\type << 8) | (\end << 10)
	.popsection
.endm

/* In a section of its own, and first: a relocatable object's table is
 * then out of address order (.text comes first in the layout). */
	.section .text.other, "ax", @progbits
	.globl	h_other
	.type	h_other, @function
h_other:
	.cfi_startproc
	orc	h_other, SP, 8
	push	%r13
	.cfi_adjust_cfa_offset 8
0:	orc	0b, SP, 16
	sub	$72, %rsp
	.cfi_adjust_cfa_offset 72
0:	orc	0b, SP, 88
	mov	%rdi, (%rsp)
	add	$72, %rsp
	.cfi_adjust_cfa_offset -72
0:	orc	0b, SP, 16
	pop	%r13
	.cfi_adjust_cfa_offset -8
0:	orc	0b, SP, 8
	ret
	.cfi_endproc
	.size	h_other, .-h_other
0:	orc	0b, UNDEF, 0		/* objtool's section terminator */

	.text
/* a leaf that pushes nothing */
	.globl	h_leaf
	.type	h_leaf, @function
h_leaf:
	.cfi_startproc
	orc	h_leaf, SP, 8
	mov	%rdi, %rax
	ret
	.cfi_endproc
	.size	h_leaf, .-h_leaf

/* no row at its entry: h_leaf's "sp+8" holds on, as objtool writes no
 * row equal to the one before it */
	.globl	h_inherit
	.type	h_inherit, @function
h_inherit:
	.cfi_startproc
	push	%rbx
	.cfi_adjust_cfa_offset 8
0:	orc	0b, SP, 16
	sub	$32, %rsp
	.cfi_adjust_cfa_offset 32
0:	orc	0b, SP, 48
	mov	%rdi, %rbx
	call	h_leaf
	add	$32, %rsp
	.cfi_adjust_cfa_offset -32
0:	orc	0b, SP, 16
	pop	%rbx
	.cfi_adjust_cfa_offset -8
0:	orc	0b, SP, 8
	ret
	.cfi_endproc
	.size	h_inherit, .-h_inherit
0:	orc	0b, UNDEF, 0		/* padding: never reached */
	.p2align 4, 0xcc

/* int3 after an indirect tail jump (straight-line speculation): an
 * UNDEFINED row inside the function, which takes nothing from it */
	.globl	h_sls
	.type	h_sls, @function
h_sls:
	.cfi_startproc
	orc	h_sls, SP, 8
	sub	$24, %rsp
	.cfi_adjust_cfa_offset 24
0:	orc	0b, SP, 32
	test	%edi, %edi
	je	1f
	add	$24, %rsp
	.cfi_adjust_cfa_offset -24
0:	orc	0b, SP, 8
	jmp	*hook(%rip)
0:	orc	0b, UNDEF, 0
	int3
	.cfi_adjust_cfa_offset 24
1:	orc	1b, SP, 32
	mov	%rdi, 8(%rsp)
	call	h_inherit
	add	$24, %rsp
	.cfi_adjust_cfa_offset -24
0:	orc	0b, SP, 8
	ret
	.cfi_endproc
	.size	h_sls, .-h_sls

/* local_irq_save() as the kernel runs it: "pushf; pop" */
	.globl	h_irqsave
	.type	h_irqsave, @function
h_irqsave:
	.cfi_startproc
	orc	h_irqsave, SP, 8
	push	%rbp
	.cfi_adjust_cfa_offset 8
0:	orc	0b, SP, 16
	sub	$16, %rsp
	.cfi_adjust_cfa_offset 16
0:	orc	0b, SP, 32
	pushf
0:	orc	0b, SP, 40
	pop	%rax
0:	orc	0b, SP, 32
	mov	%rax, (%rsp)
	add	$16, %rsp
	.cfi_adjust_cfa_offset -16
0:	orc	0b, SP, 16
	pop	%rbp
	.cfi_adjust_cfa_offset -8
0:	orc	0b, SP, 8
	ret
	.cfi_endproc
	.size	h_irqsave, .-h_irqsave

/* a frame pointer: once the CFA is on %rbp, "sub $64" is not described
 * by the stack pointer: no ORC frame (nor a CFI one) */
	.globl	h_fp
	.type	h_fp, @function
h_fp:
	.cfi_startproc
	orc	h_fp, SP, 8
	push	%rbp
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %rbp, 0
0:	orc	0b, SP, 16
	mov	%rsp, %rbp
	.cfi_def_cfa_register %rbp
0:	orc	0b, BP, 16
	sub	$64, %rsp
	mov	%rdi, (%rsp)
	leave
	.cfi_def_cfa %rsp, 8
0:	orc	0b, SP, 8
	ret
	.cfi_endproc
	.size	h_fp, .-h_fp
0:	orc	0b, UNDEF, 0		/* objtool's section terminator */

	.section .note.GNU-stack, "", @progbits
