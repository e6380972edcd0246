/*
 * startup.c - a Cortex-M3 vector table and reset handler, as firmware has
 * them: the table only holds addresses (no calls), Reset_Handler copies
 * .data, clears .bss and calls main.  Linked with -nostdlib -lgcc.
 */
#include "fw.h"

extern uint32_t _sidata, _sdata, _edata, _sbss, _ebss, _estack;

void Reset_Handler(void);
void Default_Handler(void);

__attribute__((section(".isr_vector"), used))
static void (*const vectors[])(void) = {
	(void (*)(void))&_estack,
	Reset_Handler,
	Default_Handler,	/* NMI */
	Default_Handler,	/* HardFault */
	[15] = SysTick_Handler,
	[53] = USART1_IRQHandler,
};

void Default_Handler(void)
{
	for (;;)
		;
}

void Reset_Handler(void)
{
	uint32_t *src = &_sidata, *dst = &_sdata;

	while (dst < &_edata)
		*dst++ = *src++;
	for (dst = &_sbss; dst < &_ebss;)
		*dst++ = 0;
	main();
	for (;;)
		;
}
