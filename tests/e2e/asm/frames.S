/*
 * frames.S - hand-written x86-64 functions for t1010: no .su row, so
 * their frames come from the CFI below.  Each push and each sub of %rsp
 * is followed by the .cfi directive that says so; t1010 adds them up
 * from this file (return address 8 + 8 per push + the sub constants) and
 * compares with stackprof's "cfi" frames and with a painted stack.
 */
	.text

/* a leaf: two pushes and 40 bytes, and one store 16 bytes below %rsp
 * (its red zone) */
	.globl	asm_leaf
	.type	asm_leaf, @function
asm_leaf:
	.cfi_startproc
	push	%rbx
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %rbx, 0
	push	%r12
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %r12, 0
	sub	$40, %rsp
	.cfi_adjust_cfa_offset 40
	mov	%rdi, (%rsp)
	mov	%rdi, 32(%rsp)
	mov	%rdi, -16(%rsp)
	mov	(%rsp), %rax
	add	$40, %rsp
	.cfi_adjust_cfa_offset -40
	pop	%r12
	.cfi_adjust_cfa_offset -8
	pop	%rbx
	.cfi_adjust_cfa_offset -8
	ret
	.cfi_endproc
	.size	asm_leaf, .-asm_leaf

/* calls c_leaf (main.c) with one push and 16 bytes: its total is its
 * CFI frame plus c_leaf's */
	.globl	asm_caller
	.type	asm_caller, @function
asm_caller:
	.cfi_startproc
	push	%rbp
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %rbp, 0
	sub	$16, %rsp
	.cfi_adjust_cfa_offset 16
	mov	%rdi, 8(%rsp)
	call	c_leaf
	add	$16, %rsp
	.cfi_adjust_cfa_offset -16
	pop	%rbp
	.cfi_adjust_cfa_offset -8
	ret
	.cfi_endproc
	.size	asm_caller, .-asm_caller

/* a frame pointer: the CFA moves to %rbp, so the CFI says nothing of the
 * later "sub $64,%rsp": the frame is read from the code instead */
	.globl	asm_fp
	.type	asm_fp, @function
asm_fp:
	.cfi_startproc
	push	%rbp
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %rbp, 0
	mov	%rsp, %rbp
	.cfi_def_cfa_register %rbp
	sub	$64, %rsp
	mov	%rdi, (%rsp)
	mov	(%rsp), %rax
	leave
	.cfi_def_cfa %rsp, 8
	ret
	.cfi_endproc
	.size	asm_fp, .-asm_fp

	.section .note.GNU-stack,"",@progbits
