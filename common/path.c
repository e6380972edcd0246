/* path.c - see path.h */
#include "common/path.h"

#include <string.h>

const char *sp_path_in_dir(const char *path, const char *dir)
{
	size_t n = dir ? strlen(dir) : 0;

	while (n > 1 && dir[n - 1] == '/')
		n--;
	if (n && !strncmp(path, dir, n) && path[n] == '/' && path[n + 1])
		path += n + 1;
	while (path[0] == '.' && path[1] == '/' && path[2])
		path += 2;
	while (path[0] == '/' && path[1] == '/')
		path++;
	return path;
}
