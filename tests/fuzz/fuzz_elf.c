/*
 * fuzz_elf.c - libFuzzer harness for the ELF + DWARF loader: the input is
 * written to a memfd and opened by its /proc path like any ELF argument,
 * loaded with DWARF and disassembly calls, every function's CFI frame
 * looked up, its red zones read (x86-64) and dynamic frames described,
 * then analysed.  Inputs of odd size are walked by two threads (the split
 * walk, for any size of .debug_info); the FDEs are found one by one
 * through .eh_frame_hdr for sizes that are multiples of 3 or 5, else in
 * libdwarf's list.
 * Seeded with the sample binaries (make fuzz).
 */
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "analysis/analysis.h"
#include "callgraph/callgraph.h"
#include "frames/frames.h"
#include "stackprof.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int write_memfd(const uint8_t *data, size_t size)
{
	int fd = memfd_create("fuzz.elf", 0);
	size_t done = 0;

	while (fd >= 0 && done < size) {
		ssize_t n = write(fd, data + done, size - done);

		if (n <= 0) {
			close(fd);
			return -1;
		}
		done += (size_t)n;
	}
	return fd;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cg_options opts = {
		.calls = CG_CALLS_BOTH,
		.split_walk_min = size % 2 ? 1 : UINT64_MAX,
	};
	struct frame_opts fo = {
		.cfi_lookup = size % 3 == 0 || size % 5 == 0 ? DW_CFI_ONE_BY_ONE : DW_CFI_LIST,
		.compare = true,
	};
	struct frame_stats st;
	struct cg_image *img;
	struct sp_graph g;
	struct sp_err err;
	char path[64];
	int fd = write_memfd(data, size);

	if (fd < 0)
		return 0;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	sp_graph_init(&g);
	if (!cg_open(&img, path, &err)) {
		if (!cg_load(img, &g, &opts, &err)) {
			frames_decide(&g, &img, 1, NULL, NULL, &fo, &st);
			frames_describe(&g, &img, 1);
			sp_analyze(&g, &err);
		}
		cg_close(img);
	}
	sp_graph_release(&g);
	close(fd);
	return 0;
}
