/* A module of t1186's kernel (core.c): it fills struct demo_ops's
 * get_link, which nothing in the kernel stores. */
struct dev;
struct demo_ops {
	int (*get_link)(struct dev *);
	void (*reset)(struct dev *, int);
	int (*esc)(struct dev *);
};
int mod_get_link(struct dev *d) { return d != 0; }
const struct demo_ops mod_ops = { .get_link = mod_get_link };
