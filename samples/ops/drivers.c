/*
 * drivers.c - two drivers that fill a struct device_ops at run time
 * (typed stores through a pointer), and a timer that stores whatever
 * callback it is handed.
 */
#include "ops.h"

static __attribute__((noinline)) void uart_start(struct device *dev)
{
	volatile char buf[48];

	buf[0] = (char)dev->id;
	dev->id += buf[0];
}

static __attribute__((noinline)) int uart_read(struct device *dev, int n)
{
	volatile char buf[520];

	buf[0] = (char)n;
	buf[519] = (char)dev->id;
	return buf[0] + buf[519];
}

static __attribute__((noinline)) void spi_start(struct device *dev)
{
	volatile char buf[56];

	buf[0] = (char)dev->id;
	dev->id -= buf[0];
}

static __attribute__((noinline)) int spi_read(struct device *dev, int n)
{
	volatile char buf[264];

	buf[0] = (char)n;
	buf[263] = (char)dev->id;
	return buf[0] - buf[263];
}

void uart_setup(struct device *dev)
{
	dev->ops.start = uart_start;
	dev->ops.read = uart_read;
	dev->id = 1;
}

void spi_setup(struct device *dev)
{
	dev->ops.start = spi_start;
	dev->ops.read = spi_read;
	dev->id = 2;
}

__attribute__((noinline)) int device_read(struct device *dev, int n)
{
	volatile char buf[40];

	buf[0] = (char)n;
	dev->ops.start(dev);
	return dev->ops.read(dev, n) + buf[0];
}

__attribute__((noinline)) void timer_arm(struct timer *t, void (*fire)(struct timer *t))
{
	t->fire = fire;
	t->count = 0;
}
