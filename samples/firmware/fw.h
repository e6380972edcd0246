#ifndef FW_H
#define FW_H

#include <stdint.h>

#define UART_DR   (*(volatile uint32_t *)0x40013804u)
#define UART_SR   (*(volatile uint32_t *)0x40013800u)
#define GPIO_ODR  (*(volatile uint32_t *)0x4001080cu)
#define ADC_DR    (*(volatile uint32_t *)0x4001244cu)

void uart_putc(char c);
void uart_puts(const char *s);
void uart_put_u32(uint32_t v);
void led_toggle(void);
uint32_t sensor_average(unsigned n);
uint32_t sample_logged(uint32_t n);
int run_command(unsigned cmd, uint32_t arg);
void SysTick_Handler(void);
void USART1_IRQHandler(void);
int main(void);

extern volatile uint32_t ticks;

#endif
