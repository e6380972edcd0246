/*
 * firmware.c - the application: a filtered sensor, a command table called
 * through function pointers (an indirect call: unbounded), the SysTick
 * handler and main.  led_toggle ends in a tail call to gpio_write, and
 * sample_logged in one to sensor_average, whose frame is bigger than
 * sample_logged's own frame plus its call: GCC's .ci sums the two.
 */
#include "fw.h"

volatile uint32_t ticks;

__attribute__((noinline)) static void gpio_write(unsigned pin, int on)
{
	if (on)
		GPIO_ODR |= 1u << pin;
	else
		GPIO_ODR &= ~(1u << pin);
}

void led_toggle(void)
{
	gpio_write(13, !(GPIO_ODR & (1u << 13)));
}

uint32_t sensor_average(unsigned n)
{
	volatile uint32_t window[32];
	uint32_t sum = 0;
	unsigned i;

	for (i = 0; i < n && i < 32; i++)
		window[i] = ADC_DR;
	for (i = 0; i < n && i < 32; i++)
		sum += window[i];
	return n ? sum / n : 0;
}

uint32_t sample_logged(uint32_t n)
{
	uart_put_u32(n);
	return sensor_average(n);
}

static int cmd_report(uint32_t arg)
{
	uart_puts("avg ");
	uart_put_u32(sensor_average(arg));
	return 0;
}

static int cmd_blink(uint32_t arg)
{
	while (arg--)
		led_toggle();
	return 1;
}

static int (*const commands[])(uint32_t) = { cmd_report, cmd_blink };

int run_command(unsigned cmd, uint32_t arg)
{
	volatile char trace[40];

	trace[0] = (char)cmd;
	if (cmd >= sizeof(commands) / sizeof(commands[0]))
		return -1;
	return commands[cmd](arg) + trace[0];
}

void SysTick_Handler(void)
{
	ticks++;
	if (ticks % 500u == 0)
		led_toggle();
}

int main(void)
{
	uart_puts("boot\n");
	for (;;) {
		uart_put_u32(sample_logged(8));
		if (run_command(ticks & 1u, 3) < 0)
			break;
	}
	return 0;
}
