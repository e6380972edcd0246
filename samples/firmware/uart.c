/*
 * uart.c - a polled UART driver and its interrupt handler.  uart_puts
 * ends in a tail call (b.w) to uart_flush; uart_put_u32 divides, which
 * is a call to libgcc's __aeabi_uidivmod on Cortex-M3 (no .su: partial).
 */
#include "fw.h"

static volatile char rx_buf[64];
static volatile unsigned rx_head;

__attribute__((noinline)) static void uart_flush(unsigned n)
{
	while (n-- && !(UART_SR & 0x40u))
		;
}

void uart_putc(char c)
{
	while (!(UART_SR & 0x80u))
		;
	UART_DR = (uint32_t)c;
}

void uart_puts(const char *s)
{
	unsigned n = 0;

	while (*s) {
		uart_putc(*s++);
		n++;
	}
	uart_flush(n);
}

void uart_put_u32(uint32_t v)
{
	char digits[12];
	int i = 0;

	do {
		digits[i++] = (char)('0' + v % 10u);
		v /= 10u;
	} while (v && i < 12);
	while (i > 0)
		uart_putc(digits[--i]);
}

void USART1_IRQHandler(void)
{
	char line[24];
	unsigned i;

	for (i = 0; i < sizeof(line) - 1 && (UART_SR & 0x20u); i++)
		line[i] = (char)UART_DR;
	line[i] = '\0';
	rx_buf[rx_head++ % sizeof(rx_buf)] = line[0];
	if (line[0] == '?')
		uart_puts(line);
}
