/* ops.h - the types the ops sample calls through. */
#ifndef OPS_H
#define OPS_H

/* A shape's operations: initialised in data, one object per shape. */
struct shape_ops {
	int (*area)(int size);
	int (*perimeter)(int size);
};

struct shape {
	const struct shape_ops *ops;
	int size;
};

/* A device's operations: filled by code at run time (drivers.c). */
struct device;
struct device_ops {
	void (*start)(struct device *dev);
	int (*read)(struct device *dev, int n);
};

struct device {
	struct device_ops ops;
	int id;
};

/* A timer whose callback its caller hands in: stored with a value of
 * unknown origin, so calls through it go by the prototype. */
struct timer {
	void (*fire)(struct timer *t);
	int count;
};

void uart_setup(struct device *dev);
void spi_setup(struct device *dev);
void timer_arm(struct timer *t, void (*fire)(struct timer *t));
int device_read(struct device *dev, int n);

extern const struct shape square, circle;

#endif
