/*
 * read.c - the .su stage's one entry point: the files named or found,
 * their rows given to the functions.
 */
#include "su/su.h"

int su_read(struct sp_graph *g, const struct su_request *r, struct sp_frames *frames,
	    struct sp_err *err)
{
	struct su_set set;
	size_t i;
	int ret = -1;

	su_set_init(&set);
	for (i = 0; i < r->npaths; i++)
		if (su_add_path(&set, &g->strs, r->paths[i], r->keep_going, r->warn, r->ctx, err))
			goto out;
	/* with .su files named, the directories add more; without, they
	 * guide discovery */
	for (i = 0; r->npaths && i < r->ndirs; i++)
		if (su_add_path(&set, &g->strs, r->dirs[i], r->keep_going, r->warn, r->ctx, err))
			goto out;
	if (!r->npaths && su_discover(&set, g, r->imgs, r->nimgs, r->dirs, r->ndirs,
				      r->keep_going, r->warn, r->ctx, err))
		goto out;
	ret = su_match(g, &set, frames, r->note, r->ctx, err);
out:
	su_set_release(&set);
	return ret;
}
