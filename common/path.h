/*
 * path.h - source file names as a person reads them.
 */
#ifndef SP_COMMON_PATH_H
#define SP_COMMON_PATH_H

/*
 * path relative to dir (a compile unit's DW_AT_comp_dir, the build
 * directory) when it lies inside it, without leading "./": a suffix of
 * path, never a new string.  A path outside dir, or a NULL dir, keeps
 * its spelling, less the "./".
 */
const char *sp_path_in_dir(const char *path, const char *dir);

#endif
