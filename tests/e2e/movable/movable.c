/*
 * A movable page's operations (t1268), laid out as Linux 6.1 lays them
 * out: a movable page's mapping is its struct movable_operations plus
 * PAGE_MAPPING_MOVABLE (include/linux/page-flags.h), and
 * move_to_new_folio() (mm/migrate.c:958-977) calls
 * page_movable_ops(src)->migrate_page, inlined: a load of
 * page->mapping, then of the word 8 - 2 bytes past it.  GCC's DWARF
 * says mops = *(page + 24) - 2.  The only struct movable_operations is
 * zsmalloc_mops, whose migrate_page is z_migrate.
 */
#include <stdlib.h>
#define NOINLINE __attribute__((noinline))
#define PAGE_MAPPING_MOVABLE 0x2
struct page;
struct address_space_operations { int (*migrate_folio)(struct page *dst, struct page *src); };
struct address_space { long nrpages; const struct address_space_operations *a_ops; };
struct movable_operations {
	int (*isolate_page)(struct page *, int);
	int (*migrate_page)(struct page *dst, struct page *src, int mode);
	void (*putback_page)(struct page *);
};
struct page { unsigned long flags; long lru[2]; struct address_space *mapping; long index; };
static inline const struct movable_operations *page_movable_ops(struct page *page)
{
	return (const struct movable_operations *)((unsigned long)page->mapping - PAGE_MAPPING_MOVABLE);
}
NOINLINE int PageMovable(struct page *page) { return ((unsigned long)page->mapping & 3) == PAGE_MAPPING_MOVABLE; }
NOINLINE int z_isolate(struct page *p, int m) { return (int)p->flags + m; }
NOINLINE int z_migrate(struct page *d, struct page *s, int m) { d->index = s->index; return m - 1; }
NOINLINE void z_putback(struct page *p) { p->index = 0; }
NOINLINE int b_migrate(struct page *d, struct page *s, int m) { d->flags = s->flags; return m - 2; }
const struct movable_operations zsmalloc_mops = { z_isolate, z_migrate, z_putback };
NOINLINE int other_migrate(struct page *d, struct page *s, int m) { return (int)(d->flags + s->flags) + m; }
int (*volatile decoy)(struct page *, struct page *, int) = other_migrate;
NOINLINE int move_to_new_page(struct page *dst, struct page *src, int mode)
{
	int rc = -11;

	if (PageMovable(src)) {
		const struct movable_operations *mops = page_movable_ops(src);
		rc = mops->migrate_page(dst, src, mode);
	}
	return rc;
}
int main(int argc, char **argv)
{
	struct page *a = calloc(2, sizeof(*a));
	(void)argv;
	if (!a)
		return 1;
	a[1].mapping = (struct address_space *)((unsigned long)&zsmalloc_mops + PAGE_MAPPING_MOVABLE);
	return move_to_new_page(&a[0], &a[1], argc) + decoy(a, a, 0) == 12345;
}
