/*
 * fuzz_su.c - libFuzzer harness for the .su parser: one buffer, parsed
 * strictly and with --keep-going, then matched onto an empty graph and
 * analysed, so that rows with huge sizes reach the arithmetic too.
 */
#include <stddef.h>
#include <stdint.h>

#include "analysis/analysis.h"
#include "frames/frames.h"
#include "stackprof.h"
#include "su/su.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void ignore(void *ctx, const char *msg)
{
	(void)ctx;
	(void)msg;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sp_graph g;
	struct su_set set;
	struct sp_frames frames = { 0 };
	struct frame_opts fo = { 0 };
	struct frame_stats st;
	struct sp_err err;
	int pass;

	for (pass = 0; pass < 2; pass++) {
		sp_graph_init(&g);
		su_set_init(&set);
		if (!su_parse_buffer(&set, &g.strs, "fuzz.su", (const char *)data, size,
				     pass == 1, ignore, NULL, &err) &&
		    !su_match(&g, &set, &frames, ignore, NULL, &err)) {
			frames_decide(&g, NULL, 0, NULL, &frames, &fo, &st);
			sp_analyze(&g, &err);
		}
		sp_frames_release(&frames);
		su_set_release(&set);
		sp_graph_release(&g);
	}
	return 0;
}
