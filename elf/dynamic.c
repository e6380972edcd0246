/* dynamic.c - the libraries an image needs and where ld.so finds them. */
#include "elf/dynamic.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/strbuf.h"
#include "common/xalloc.h"
#include "elf/arch.h"

static char *dup_or_null(const char *s)
{
	return s ? sp_xstrdup(s) : NULL;
}

static void read_interp(const struct sp_elf *e, struct sp_elf_dynamic *d)
{
	size_t i, n, size;
	const char *raw = elf_rawfile(e->elf, &size);

	if (!raw || elf_getphdrnum(e->elf, &n))
		return;
	for (i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(e->elf, (int)i, &ph) || ph.p_type != PT_INTERP)
			continue;
		/* a NUL inside the segment ends the path */
		if (ph.p_offset < size && ph.p_filesz <= size - ph.p_offset && ph.p_filesz &&
		    memchr(raw + ph.p_offset, '\0', ph.p_filesz))
			d->interp = sp_xstrdup(raw + ph.p_offset);
		return;
	}
}

static void read_entry(const struct sp_elf *e, const GElf_Dyn *dyn, size_t strndx,
		       struct sp_elf_dynamic *d)
{
	const char *s = NULL;

	if (dyn->d_tag == DT_NEEDED || dyn->d_tag == DT_RPATH || dyn->d_tag == DT_RUNPATH ||
	    dyn->d_tag == DT_SONAME)
		s = elf_strptr(e->elf, strndx, dyn->d_un.d_val);
	switch (dyn->d_tag) {
	case DT_NEEDED:
		if (s && *s) {
			d->needed = sp_xrealloc(d->needed, (d->nneeded + 1) * sizeof(*d->needed));
			d->needed[d->nneeded++] = sp_xstrdup(s);
		}
		break;
	case DT_RPATH:
		if (!d->rpath)
			d->rpath = dup_or_null(s);
		break;
	case DT_RUNPATH:
		if (!d->runpath)
			d->runpath = dup_or_null(s);
		break;
	case DT_SONAME:
		if (!d->soname)
			d->soname = dup_or_null(s);
		break;
	case DT_FLAGS:
		d->bind_now |= (dyn->d_un.d_val & DF_BIND_NOW) != 0;
		break;
	case DT_FLAGS_1:
		d->bind_now |= (dyn->d_un.d_val & DF_1_NOW) != 0;
		break;
	case DT_BIND_NOW:
		d->bind_now = true;
		break;
	}
}

void sp_elf_read_dynamic(const struct sp_elf *e, struct sp_elf_dynamic *d)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	memset(d, 0, sizeof(*d));
	if (!e->elf || e->type == ET_REL)
		return;
	read_interp(e, d);
	while ((scn = elf_nextscn(e->elf, scn))) {
		Elf_Data *data;
		size_t i;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_DYNAMIC || !sh.sh_entsize ||
		    !(data = elf_getdata(scn, NULL)))
			continue;
		d->dynamic = true;
		for (i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Dyn dyn;

			if (!gelf_getdyn(data, (int)i, &dyn) || dyn.d_tag == DT_NULL)
				break;
			read_entry(e, &dyn, sh.sh_link, d);
		}
		return;
	}
}

void sp_elf_dynamic_release(struct sp_elf_dynamic *d)
{
	size_t i;

	for (i = 0; i < d->nneeded; i++)
		free(d->needed[i]);
	free(d->needed);
	free(d->rpath);
	free(d->runpath);
	free(d->soname);
	free(d->interp);
	memset(d, 0, sizeof(*d));
}

/* ---- finding a library ---- */

/* Is path a regular ELF file for the machine? */
static bool lib_fits(const char *path, uint16_t machine)
{
	unsigned char h[20];
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	bool ok;

	if (fd < 0)
		return false;
	ok = !fstat(fd, &st) && S_ISREG(st.st_mode) && read(fd, h, sizeof(h)) == sizeof(h) &&
	     !memcmp(h, ELFMAG, SELFMAG);
	close(fd);
	if (!ok)
		return false;
	/* e_machine, in the file's byte order */
	return (h[EI_DATA] == ELFDATA2MSB ? (uint16_t)(h[18] << 8 | h[19]) :
		(uint16_t)(h[19] << 8 | h[18])) == machine;
}

/* SYSROOT + path, malloc'ed. */
static char *rooted(const struct sp_lib_search *s, const char *path)
{
	struct sp_strbuf b;

	memset(&b, 0, sizeof(b));
	if (s->sysroot && path[0] == '/')
		sp_strbuf_addf(&b, "%s", s->sysroot);
	sp_strbuf_addf(&b, "%s", path);
	return b.buf;
}

/* dir (a DT_RUNPATH entry, $ORIGIN the needing image's directory) + name */
static char *in_dir(const struct sp_lib_search *s, const char *dir, size_t len,
		    const char *name, const char *by_path)
{
	struct sp_strbuf b;
	const char *slash = strrchr(by_path, '/');
	char *path, *full;

	memset(&b, 0, sizeof(b));
	while (len) {
		size_t k = !strncmp(dir, "$ORIGIN", 7) ? 7 : !strncmp(dir, "${ORIGIN}", 9) ? 9 : 0;

		if (k && k <= len) {
			/* by_path already lies under the sysroot */
			if (slash)
				sp_strbuf_addf(&b, "%.*s", (int)(slash - by_path), by_path);
			else
				sp_strbuf_addf(&b, ".");
			dir += k, len -= k;
			continue;
		}
		sp_strbuf_addf(&b, "%c", *dir);
		dir++, len--;
	}
	sp_strbuf_addf(&b, "/%s", name);
	path = b.buf;
	if (!strncmp(path, by_path, slash ? (size_t)(slash - by_path) : 0) && slash)
		return path;	/* from $ORIGIN: rooted already */
	full = rooted(s, path);
	free(path);
	return full;
}

/* The first directory of a ':' list that holds name for the machine. */
static char *in_list(const struct sp_lib_search *s, const char *list, const char *name,
		     const char *by_path)
{
	while (list && *list) {
		size_t len = strcspn(list, ":");

		if (len) {
			char *path = in_dir(s, list, len, name, by_path);

			if (lib_fits(path, s->machine))
				return path;
			free(path);
		}
		list += len + (list[len] == ':');
	}
	return NULL;
}

/*
 * /etc/ld.so.cache in glibc's format since 2.32 ("glibc-ld.so.cache1.1",
 * maybe after the old "ld.so-1.7.0" table): 48 bytes of header, then
 * nlibs entries of 24 bytes whose key (the soname) and value (the path)
 * are offsets from the new header's start.
 */
#define CACHE_NEW "glibc-ld.so.cache1.1"
#define CACHE_OLD "ld.so-1.7.0"

static void read_cache(struct sp_lib_search *s)
{
	char *path = rooted(s, "/etc/ld.so.cache");
	FILE *fp = fopen(path, "rb");
	long len;

	s->cache_read = true;
	free(path);
	if (!fp)
		return;
	if (!fseek(fp, 0, SEEK_END) && (len = ftell(fp)) > 0 && len < (64l << 20) &&
	    !fseek(fp, 0, SEEK_SET)) {
		s->cache = sp_xmalloc((size_t)len + 1);
		s->cache_len = fread(s->cache, 1, (size_t)len, fp);
		s->cache[s->cache_len] = '\0';
	}
	fclose(fp);
}

static uint32_t u32_at(const char *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* Where the new format's header starts in the cache, or cache_len. */
static size_t cache_new_start(const struct sp_lib_search *s)
{
	size_t off = 0;

	if (s->cache_len >= 16 && !memcmp(s->cache, CACHE_OLD, strlen(CACHE_OLD))) {
		uint64_t n = u32_at(s->cache + 12);

		off = (size_t)((16 + n * 12 + 7) & ~(uint64_t)7);
	}
	if (off > s->cache_len || s->cache_len - off < 48 ||
	    memcmp(s->cache + off, CACHE_NEW, strlen(CACHE_NEW)))
		return s->cache_len;
	return off;
}

static const char *cache_str(const struct sp_lib_search *s, size_t base, uint32_t off)
{
	if (off >= s->cache_len - base)
		return NULL;
	/* the buffer ends with a NUL of ours */
	return s->cache + base + off;
}

static char *in_cache(struct sp_lib_search *s, const char *name)
{
	size_t base, i, n;

	if (!s->cache_read)
		read_cache(s);
	if (!s->cache || (base = cache_new_start(s)) == s->cache_len)
		return NULL;
	n = u32_at(s->cache + base + 20);
	for (i = 0; i < n && 48 + (i + 1) * 24 <= s->cache_len - base; i++) {
		const char *e = s->cache + base + 48 + i * 24;
		const char *key = cache_str(s, base, u32_at(e + 4));
		const char *value = cache_str(s, base, u32_at(e + 8));
		char *path;

		if (!key || !value || strcmp(key, name))
			continue;
		path = rooted(s, value);
		if (lib_fits(path, s->machine))
			return path;
		free(path);
	}
	return NULL;
}

/* The directories ld.so searches last, the Debian multiarch one first. */
static char *in_default_dirs(const struct sp_lib_search *s, const char *name,
			     const char *by_path)
{
	const char *triple = sp_arch(s->machine)->multiarch;
	char list[256];

	if (triple)
		snprintf(list, sizeof(list), "/lib/%s:/usr/lib/%s:/lib64:/usr/lib64:/lib:/usr/lib",
			 triple, triple);
	else
		snprintf(list, sizeof(list), "/lib64:/usr/lib64:/lib:/usr/lib");
	return in_list(s, list, name, by_path);
}

char *sp_lib_find(struct sp_lib_search *s, const char *name, const struct sp_elf_dynamic *by,
		  const char *by_path)
{
	char *path;

	if (strchr(name, '/')) {
		path = rooted(s, name);
		if (lib_fits(path, s->machine))
			return path;
		free(path);
		return NULL;
	}
	if (!by->runpath && (path = in_list(s, by->rpath, name, by_path)))
		return path;
	if ((path = in_list(s, s->library_path, name, by_path)))
		return path;
	if ((path = in_list(s, by->runpath, name, by_path)))
		return path;
	if ((path = in_cache(s, name)))
		return path;
	return in_default_dirs(s, name, by_path);
}

char *sp_lib_debug_file(const struct sp_lib_search *s, const struct sp_elf *e)
{
	const unsigned char *id;
	size_t len, i;
	struct sp_strbuf b;
	char *path;

	if (!sp_elf_build_id(e, &id, &len) || len < 2)
		return NULL;
	memset(&b, 0, sizeof(b));
	sp_strbuf_addf(&b, "%s/usr/lib/debug/.build-id/%02x/", s->sysroot ? s->sysroot : "",
		       id[0]);
	for (i = 1; i < len; i++)
		sp_strbuf_addf(&b, "%02x", id[i]);
	sp_strbuf_addf(&b, ".debug");
	path = b.buf;
	if (access(path, R_OK)) {
		free(path);
		return NULL;
	}
	return path;
}

void sp_lib_search_release(struct sp_lib_search *s)
{
	free(s->cache);
	s->cache = NULL;
	s->cache_len = 0;
	s->cache_read = false;
}
