/* SPDX-License-Identifier: MIT */
/*
 * Where a storage job runs, whether it may, and on what medium.
 *
 * The rules (docs/methodology-storage.md): in a directory the job makes a
 * file of its own and removes it; an existing file or a block device is
 * read freely, written only when destroy repeats its path; a device that
 * is mounted, has a mounted partition, is swap or is held by another device
 * (device-mapper, RAID) is never written. Checked before anything runs, so
 * a refusal is bad input: one line, exit 2, nothing touched.
 *
 * The medium (eMMC, SD card, NVMe, USB...), its model and the file system
 * come from /proc/self/mountinfo and sysfs, so the guide can title its
 * tables as the seed does ("EMMC EXT4", "MMC EXT4", "PCIE SSD EXT4").
 */
/* 64-bit file offsets on 32-bit targets (armhf): files and devices past 2 GB. */
#define _FILE_OFFSET_BITS 64
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "core/sysinfo.h"
#include "storage.h"
#include "core/err.h"

/* Copies src into dst of len bytes, cut short where it does not fit. */
static void set_text(char *dst, size_t len, const char *src)
{
	size_t n = strnlen(src, len - 1);
	memcpy(dst, src, n);
	dst[n] = '\0';
}

/* One line of /proc/self/mountinfo. */
struct mnt {
	unsigned major, minor;
	char point[PATH_MAX];
	char opts[256];		/* per-mount: rw,relatime */
	char fstype[32];
	char source[256];
	char super[512];	/* the file system's own: rw,sync,... */
};

/* Copies a space-delimited field, undoing mountinfo's octal escapes
 * (\040 for a space). Returns the text after it. */
static const char *field(const char *p, char *out, size_t len)
{
	size_t n = 0;
	while (*p == ' ')
		p++;
	while (*p && *p != ' ' && *p != '\n') {
		char c = *p++;
		if (c == '\\' && p[0] >= '0' && p[0] <= '7' && p[1] >= '0' && p[1] <= '7' &&
		    p[2] >= '0' && p[2] <= '7') {
			c = (char)((p[0] - '0') * 64 + (p[1] - '0') * 8 + (p[2] - '0'));
			p += 3;
		}
		if (n + 1 < len)
			out[n++] = c;
	}
	if (len)
		out[n] = '\0';
	return p;
}

/* Parses the line at *cur and moves past it; 1 when a line was read. */
static int next_mount(const char **cur, struct mnt *m)
{
	while (**cur) {
		const char *line = *cur;
		const char *nl = strchr(line, '\n');
		*cur = nl ? nl + 1 : line + strlen(line);
		char tmp[64];
		const char *p = field(line, tmp, sizeof(tmp));	/* mount id */
		p = field(p, tmp, sizeof(tmp));			/* parent id */
		p = field(p, tmp, sizeof(tmp));			/* major:minor */
		if (sscanf(tmp, "%u:%u", &m->major, &m->minor) != 2)
			continue;
		p = field(p, tmp, sizeof(tmp));			/* root */
		p = field(p, m->point, sizeof(m->point));
		p = field(p, m->opts, sizeof(m->opts));
		/* optional fields up to "-" */
		for (;;) {
			p = field(p, tmp, sizeof(tmp));
			if (!tmp[0] || strcmp(tmp, "-") == 0)
				break;
		}
		if (!tmp[0])
			continue;
		p = field(p, m->fstype, sizeof(m->fstype));
		p = field(p, m->source, sizeof(m->source));
		field(p, m->super, sizeof(m->super));
		return 1;
	}
	return 0;
}

char *st_read_mountinfo(void)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/proc/self/mountinfo", pg_sysinfo_root());
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	size_t cap = 16384, n = 0;
	char *buf = malloc(cap);
	while (buf) {
		size_t r = fread(buf + n, 1, cap - n - 1, f);
		n += r;
		if (n + 1 < cap)
			break;
		char *nb = realloc(buf, cap * 2);
		if (!nb) {
			free(buf);
			buf = NULL;
			break;
		}
		buf = nb;
		cap *= 2;
	}
	fclose(f);
	if (buf)
		buf[n] = '\0';
	return buf;
}

static int has_opt(const char *opts, const char *want)
{
	size_t wl = strlen(want);
	for (const char *p = opts; *p;) {
		const char *c = strchr(p, ',');
		size_t l = c ? (size_t)(c - p) : strlen(p);
		if (l == wl && strncmp(p, want, wl) == 0)
			return 1;
		p += l + (c ? 1 : 0);
	}
	return 0;
}

/* path lies on the mount point: "/" holds everything, "/mnt" holds /mnt/x
 * but not /mntx. */
static size_t prefix_len(const char *point, const char *path)
{
	size_t l = strlen(point);
	if (strcmp(point, "/") == 0)
		return 1;
	if (strncmp(point, path, l) == 0 && (path[l] == '/' || path[l] == '\0'))
		return l + 1;
	return 0;
}

/* The sysfs directory of a block device ("" root + /sys/dev/block/M:m,
 * resolved), or "" when there is none. */
static void sysfs_dir(unsigned major, unsigned minor, char *out, size_t len)
{
	char link[512];
	char real[PATH_MAX];
	snprintf(link, sizeof(link), "%s/sys/dev/block/%u:%u", pg_sysinfo_root(), major, minor);
	if (realpath(link, real))
		snprintf(out, len, "%s", real);
	else if (len)
		out[0] = '\0';
}

static int read_abs(const char *dir, const char *name, char *buf, int len)
{
	char p[PATH_MAX + 64];
	snprintf(p, sizeof(p), "%s/%s", dir, name);
	FILE *f = fopen(p, "r");
	if (!f) {
		buf[0] = '\0';
		return -1;
	}
	size_t n = fread(buf, 1, (size_t)len - 1, f);
	fclose(f);
	buf[n] = '\0';
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return (int)n;
}

static int is_file(const char *dir, const char *name)
{
	char p[2 * PATH_MAX];
	snprintf(p, sizeof(p), "%s/%s", dir, name);
	return access(p, F_OK) == 0;
}

static const char *base(const char *p)
{
	const char *s = strrchr(p, '/');
	return s ? s + 1 : p;
}

static int starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}


/* Disks named by their kind, and the sysfs file (under the disk) that
 * names what backs them; zram before ram, a prefix of it. */
static const struct named_disk {
	const char *prefix, *medium, *model;
} named_disks[] = {
	{ "vd", "virtio", NULL }, { "xvd", "xen", NULL }, { "loop", "loop", "loop/backing_file" },
	{ "zram", "zram", NULL }, { "ram", "ram", NULL }, { "nullb", "null_blk", NULL },
	{ "dm-", "dm", "dm/name" }, { "md", "md", NULL }, { "nbd", "nbd", NULL },
	{ "ubiblock", "ubi", NULL }, { NULL, NULL, NULL },
};

/* The medium and model of the block device with sysfs directory dir. */
static void classify_device(const char *dir, struct st_medium *m)
{
	char disk_dir[PATH_MAX];
	char buf[128];
	set_text(m->device, sizeof(m->device), base(dir));
	snprintf(disk_dir, sizeof(disk_dir), "%s", dir);
	if (is_file(dir, "partition")) {
		char *s = strrchr(disk_dir, '/');
		if (s)
			*s = '\0';
	}
	const char *disk = base(disk_dir);
	set_text(m->disk, sizeof(m->disk), disk);
	const char *med = "disk";
	m->model[0] = '\0';
	m->rotational[0] = '\0';
	if (read_abs(disk_dir, "queue/rotational", buf, sizeof(buf)) > 0)
		set_text(m->rotational, sizeof(m->rotational), strcmp(buf, "0") == 0 ? "no" : "yes");
	if (starts(disk, "mmcblk")) {
		read_abs(disk_dir, "device/type", buf, sizeof(buf));
		/* The seed's "EMMC" and "MMC" (an SD card) tables. */
		med = strcmp(buf, "MMC") == 0 ? "emmc" : strcmp(buf, "SD") == 0 ? "sd" : "mmc";
		read_abs(disk_dir, "device/name", m->model, sizeof(m->model));
	} else if (starts(disk, "nvme")) {
		med = "nvme";
		read_abs(disk_dir, "device/model", m->model, sizeof(m->model));
	} else if (starts(disk, "sd") || starts(disk, "sr")) {
		char vendor[64], model[64];
		read_abs(disk_dir, "device/vendor", vendor, sizeof(vendor));
		read_abs(disk_dir, "device/model", model, sizeof(model));
		set_text(m->model, sizeof(m->model), vendor);
		if (vendor[0] && model[0] && strlen(m->model) + 1 < sizeof(m->model))
			strcat(m->model, " ");
		set_text(m->model + strlen(m->model), sizeof(m->model) - strlen(m->model), model);
		if (strstr(disk_dir, "/usb"))
			med = "usb";
		else if (strstr(disk_dir, "/ufs") || strstr(disk_dir, ".ufs"))
			med = "ufs";
		else
			med = strcmp(m->rotational, "yes") == 0 ? "hdd" : "ssd";
	} else if (starts(disk, "mtdblock")) {
		char p[64];
		med = "mtd";
		snprintf(p, sizeof(p), "/sys/class/mtd/mtd%s/name", disk + strlen("mtdblock"));
		pg_read_file(p, m->model, sizeof(m->model));
	} else {
		for (const struct named_disk *n = named_disks; n->prefix; n++)
			if (starts(disk, n->prefix)) {
				med = n->medium;
				if (n->model)
					read_abs(disk_dir, n->model, m->model, sizeof(m->model));
				break;
			}
	}
	/* a paravirtual disk's flag is its driver's default (virtio-blk says
	 * rotational unless the host says otherwise), not the host's medium */
	if (strcmp(med, "virtio") == 0 || strcmp(med, "xen") == 0)
		m->rotational[0] = '\0';
	set_text(m->medium, sizeof(m->medium), med);
}

/* UBIFS on raw flash (the seed's OSPI tables): "ubi0:rootfs" or
 * "ubi0_1" -> the MTD partition's name. */
static void classify_ubi(const char *source, struct st_medium *m)
{
	unsigned n;
	char p[96], num[16];
	snprintf(m->medium, sizeof(m->medium), "mtd");
	if (sscanf(source, "ubi%u", &n) != 1)
		return;
	snprintf(m->device, sizeof(m->device), "ubi%u", n);
	snprintf(p, sizeof(p), "/sys/class/ubi/ubi%u/mtd_num", n);
	if (pg_read_file(p, num, sizeof(num)) <= 0)
		return;
	snprintf(p, sizeof(p), "/sys/class/mtd/mtd%s/name", num);
	pg_read_file(p, m->model, sizeof(m->model));
}

void st_medium_from(const char *mountinfo, const char *path, unsigned dev_major,
		    unsigned dev_minor, int is_block, struct st_medium *m)
{
	memset(m, 0, sizeof(*m));
	snprintf(m->medium, sizeof(m->medium), "unknown");
	unsigned major = dev_major, minor = dev_minor;
	struct mnt *best = NULL, *cur = malloc(sizeof(*cur));
	if (!cur)
		return;
	if (is_block) {
		snprintf(m->fs, sizeof(m->fs), "raw");
	} else if (mountinfo && (best = malloc(sizeof(*best)))) {
		/* The mount holding path: the longest mount point over it, the
		 * last one listed when two are stacked on the same point. */
		size_t best_len = 0;
		const char *c = mountinfo;
		while (next_mount(&c, cur)) {
			size_t l = prefix_len(cur->point, path);
			if (l && l >= best_len) {
				best_len = l;
				*best = *cur;
			}
		}
		if (best_len) {
			set_text(m->fs, sizeof(m->fs), best->fstype);
			set_text(m->options, sizeof(m->options), best->opts);
			m->sync = has_opt(best->super, "sync") || has_opt(best->opts, "sync");
			major = best->major;
			minor = best->minor;
			/* An anonymous device (btrfs, ubifs, nfs): the source may
			 * name the real one. */
			struct stat st;
			if (major == 0 && starts(best->source, "/dev/") && stat(best->source, &st) == 0 &&
			    S_ISBLK(st.st_mode)) {
				major = major(st.st_rdev);
				minor = minor(st.st_rdev);
			}
		} else {
			/* no mount holds path: nothing of best was set */
			free(best);
			best = NULL;
			major = minor = 0;
		}
	}
	char dir[PATH_MAX];
	sysfs_dir(major, minor, dir, sizeof(dir));
	if ((major || minor) && dir[0]) {
		classify_device(dir, m);
	} else if (best && strcmp(best->fstype, "ubifs") == 0) {
		classify_ubi(best->source, m);
	} else if (best && (strcmp(best->fstype, "tmpfs") == 0 || strcmp(best->fstype, "ramfs") == 0)) {
		snprintf(m->medium, sizeof(m->medium), "ram");
	} else if (best && (starts(best->fstype, "nfs") || strcmp(best->fstype, "cifs") == 0 ||
			    strcmp(best->fstype, "smb3") == 0 || strcmp(best->fstype, "9p") == 0 ||
			    strcmp(best->fstype, "virtiofs") == 0)) {
		snprintf(m->medium, sizeof(m->medium), "network");
	} else if (best) {
		set_text(m->medium, sizeof(m->medium), best->fstype);
	}
	free(best);
	free(cur);
}

void st_parent_dir(const char *path, char *dir, size_t len)
{
	snprintf(dir, len, "%s", path);
	char *s = strrchr(dir, '/');
	if (s == dir)
		s[1] = '\0';
	else if (s)
		*s = '\0';
	else
		snprintf(dir, len, ".");
}

void st_medium_detect(const char *path, struct st_medium *m)
{
	char real[PATH_MAX];
	struct stat st;
	if (stat(path, &st) < 0 || !realpath(path, real)) {
		/* A file still to be made: what holds its directory. */
		char dir[PATH_MAX];
		st_parent_dir(path, dir, sizeof(dir));
		if (stat(dir, &st) < 0 || !realpath(dir, real)) {
			st_medium_from(NULL, "/", 0, 0, 0, m);
			return;
		}
	}
	int blk = S_ISBLK(st.st_mode);
	dev_t d = blk ? st.st_rdev : st.st_dev;
	char *mi = st_read_mountinfo();
	st_medium_from(mi, real, major(d), minor(d), blk, m);
	free(mi);
}

/* Is the device major:minor mounted, or one listed in /proc/swaps? */
static int dev_mounted(const char *mountinfo, unsigned major, unsigned minor, const char *name,
		       char *what, size_t len)
{
	struct mnt *m = malloc(sizeof(*m));
	if (!m)
		return 0;
	const char *c = mountinfo ? mountinfo : "";
	int found = 0;
	while (!found && next_mount(&c, m)) {
		struct stat st;
		if ((m->major == major && m->minor == minor) ||
		    (starts(m->source, "/dev/") && stat(m->source, &st) == 0 && S_ISBLK(st.st_mode) &&
		     major(st.st_rdev) == major && minor(st.st_rdev) == minor)) {
			snprintf(what, len, "/dev/%s is mounted on %s", name, m->point);
			found = 1;
		}
	}
	free(m);
	if (found)
		return 1;
	char p[512], line[512];
	snprintf(p, sizeof(p), "%s/proc/swaps", pg_sysinfo_root());
	FILE *f = fopen(p, "r");
	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f)) {
		char dev[256];
		struct stat st;
		if (sscanf(line, "%255s", dev) == 1 && dev[0] == '/' && stat(dev, &st) == 0 &&
		    S_ISBLK(st.st_mode) && major(st.st_rdev) == major && minor(st.st_rdev) == minor) {
			snprintf(what, len, "/dev/%s is in use as swap", name);
			found = 1;
		}
	}
	fclose(f);
	return found;
}

/* The first entry of dir/holders, if any. */
static int held(const char *dir, const char *name, char *what, size_t len)
{
	char p[PATH_MAX + 16];
	snprintf(p, sizeof(p), "%s/holders", dir);
	DIR *d = opendir(p);
	if (!d)
		return 0;
	struct dirent *e;
	int found = 0;
	while (!found && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(what, len, "/dev/%s is held by %s (device-mapper, RAID or another driver uses it)",
			 name, e->d_name);
		found = 1;
	}
	closedir(d);
	return found;
}

int st_device_busy(const char *mountinfo, unsigned dev_major, unsigned dev_minor, char *what,
		   size_t len)
{
	char dir[PATH_MAX];
	sysfs_dir(dev_major, dev_minor, dir, sizeof(dir));
	char name[64];
	set_text(name, sizeof(name), dir[0] ? base(dir) : "device");
	if (dev_mounted(mountinfo, dev_major, dev_minor, name, what, len))
		return 1;
	if (!dir[0])
		return -1;
	if (held(dir, name, what, len))
		return 1;
	/* A whole disk: each of its partitions (subdirectories with a
	 * "partition" file). */
	DIR *d = opendir(dir);
	if (!d)
		return -1;
	struct dirent *e;
	int busy = 0;
	while (!busy && (e = readdir(d))) {
		char sub[PATH_MAX + 300], dev[32];
		if (strlen(dir) + strlen(e->d_name) + 2 > sizeof(sub))
			continue;
		unsigned ma, mi;
		if (e->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", dir, e->d_name);
		if (!is_file(sub, "partition") || read_abs(sub, "dev", dev, sizeof(dev)) <= 0 ||
		    sscanf(dev, "%u:%u", &ma, &mi) != 2)
			continue;
		busy = dev_mounted(mountinfo, ma, mi, e->d_name, what, len) || held(sub, e->d_name, what, len);
	}
	closedir(d);
	return busy;
}

/* Do a and b name the same file or device? */
static int same_target(const char *a, const char *b)
{
	struct stat sa, sb;
	if (stat(a, &sa) < 0 || stat(b, &sb) < 0)
		return 0;
	if (S_ISBLK(sa.st_mode))
		return S_ISBLK(sb.st_mode) && sa.st_rdev == sb.st_rdev;
	return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* Whether path (lstat) is a symbolic link. */
static int is_link(const char *path)
{
	struct stat st;
	return lstat(path, &st) == 0 && S_ISLNK(st.st_mode);
}

/* What planning saw at each path the run names, held for the run: whether
 * the user named a link is decided once, there, and not again at each
 * result (a link swapped in between two results was taken for one the
 * user gave, and followed). */
static struct plan {
	char *path;
	struct st_target t;
} *plans;
static int nplans;
static pthread_mutex_t plans_lock = PTHREAD_MUTEX_INITIALIZER;

static void plan_note(const char *path, const struct st_target *t)
{
	pthread_mutex_lock(&plans_lock);
	int i = 0;
	while (i < nplans && strcmp(plans[i].path, path) != 0)
		i++;
	struct plan *n = i == nplans ? realloc(plans, sizeof(*n) * (size_t)(nplans + 1)) : NULL;
	if (n && (n[nplans].path = strdup(path))) {
		plans = n;
		plans[nplans++].t = *t;
	} else if (n) {
		plans = n;
	}
	pthread_mutex_unlock(&plans_lock);
}

static int plan_find(const char *path, struct st_target *t)
{
	pthread_mutex_lock(&plans_lock);
	int found = 0;
	for (int i = 0; !found && i < nplans; i++)
		if (strcmp(plans[i].path, path) == 0) {
			*t = plans[i].t;
			found = 1;
		}
	pthread_mutex_unlock(&plans_lock);
	return found;
}

void st_target_plans_forget(void)
{
	pthread_mutex_lock(&plans_lock);
	for (int i = 0; i < nplans; i++)
		free(plans[i].path);
	free(plans);
	plans = NULL;
	nplans = 0;
	pthread_mutex_unlock(&plans_lock);
}

int st_target_check(const char *path, int writes, const char *destroy, enum st_target_type *type,
		    char *err, size_t errlen)
{
	struct st_target t;
	int rc = st_target_examine(path, writes, destroy, &t, err, errlen);
	*type = t.type;
	if (rc == 0)
		plan_note(path, &t);
	return rc;
}

/* The same node: its type, and its device and inode (a block device: its
 * device number). */
static int same_node(const struct stat *a, const struct stat *b)
{
	return (a->st_mode & S_IFMT) == (b->st_mode & S_IFMT) &&
	       (S_ISBLK(a->st_mode) ? a->st_rdev == b->st_rdev : a->st_dev == b->st_dev && a->st_ino == b->st_ino);
}

int st_target_again(const char *path, int writes, const char *destroy, struct st_target *tg, char *err,
		    size_t errlen)
{
	struct st_target plan;
	if (!plan_find(path, &plan))
		return st_target_examine(path, writes, destroy, tg, err, errlen);
	char dir[PATH_MAX];
	const char *named = path;
	if (plan.type == ST_NEWFILE) {
		st_parent_dir(path, dir, sizeof(dir));
		named = dir;
	}
	if (!plan.link && is_link(named))
		return pg_err(err, errlen, "%s became a symbolic link after it was checked: refused", named);
	if (st_target_examine(path, writes, destroy, tg, err, errlen) < 0)
		return -1;
	tg->link = plan.link;
	if (tg->type != plan.type || !same_node(&tg->st, &plan.st))
		return pg_err(err, errlen, "%s is not what was checked when the run was planned (it was replaced "
			      "meanwhile): refused", path);
	return 0;
}

int st_target_open(const char *path, const struct st_target *t, int flags, char *err, size_t errlen)
{
	int fd = open(path, flags | O_CLOEXEC | (t->link ? 0 : O_NOFOLLOW));
	if (fd < 0) {
		int e = errno;
		if (e == ELOOP && !t->link)
			pg_err(err, errlen, "%s became a symbolic link after it was checked: refused", path);
		else
			pg_err(err, errlen, "%s: cannot open: %s (%s)", path, strerror(e), st_errno_name(e));
		return -1;
	}
	struct stat now;
	if (fstat(fd, &now) != 0 || !same_node(&now, &t->st)) {
		close(fd);
		return pg_err(err, errlen, "%s is not what was checked (it was replaced meanwhile): refused", path);
	}
	return fd;
}

int st_target_examine(const char *path, int writes, const char *destroy, struct st_target *tg,
		      char *err, size_t errlen)
{
	struct stat st;
	enum st_target_type *type = &tg->type;
	memset(tg, 0, sizeof(*tg));
	tg->link = is_link(path);
	if (!path[0])
		return pg_err(err, errlen, "path: give a directory, a file or a block device");
	if (stat(path, &st) < 0) {
		if (errno != ENOENT)
			return pg_err(err, errlen, "path '%s': %s", path, strerror(errno));
		/* A file to make: its directory must be there. */
		char dir[PATH_MAX];
		st_parent_dir(path, dir, sizeof(dir));
		if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode))
			return pg_err(err, errlen, "path '%s': no such file, and '%s' is not a directory", path, dir);
		*type = ST_NEWFILE;
		tg->link = is_link(dir);
	} else if (S_ISDIR(st.st_mode)) {
		*type = ST_DIR;
	} else if (S_ISREG(st.st_mode)) {
		*type = ST_FILE;
	} else if (S_ISBLK(st.st_mode)) {
		*type = ST_BLOCK;
	} else {
		return pg_err(err, errlen, "path '%s' is not a directory, a regular file or a block device", path);
	}

	tg->st = st;
	int own = *type == ST_DIR || *type == ST_NEWFILE;
	if (destroy && destroy[0] && (own || !same_target(path, destroy))) {
		if (own)
			pg_err(err, errlen,
			       "--destroy-data '%s': path '%s' is %s; perfguide makes and removes "
			       "its own file there, nothing to destroy",
			       destroy, path, *type == ST_DIR ? "a directory" : "a file still to be made");
		else
			pg_err(err, errlen,
			       "--destroy-data '%s' does not name path '%s': it must repeat "
			       "the %s written to",
			       destroy, path, *type == ST_BLOCK ? "device" : "file");
		return -1;
	}
	if (!writes || own)
		return 0;
	if (!destroy || !destroy[0])
		return pg_err(err, errlen, "writing to %s '%s' destroys the data on it: to allow it, repeat "
			      "its path with --destroy-data=%s", *type == ST_BLOCK ? "block device" : "the file",
			      path, path);
	if (*type != ST_BLOCK)
		return 0;
	char what[400];
	char *mi = st_read_mountinfo();
	int busy = st_device_busy(mi, major(st.st_rdev), minor(st.st_rdev), what, sizeof(what));
	free(mi);
	if (busy == 1)
		return pg_err(err, errlen, "refusing to write to %s: %s", path, what);
	/* What mountinfo and sysfs cannot see (a mount in another namespace,
	 * a claim by a driver): the kernel refuses an exclusive open. */
	int fd = open(path, O_RDONLY | O_EXCL | O_CLOEXEC);
	if (fd < 0 && errno == EBUSY)
		return pg_err(err, errlen, "refusing to write to %s: it is in use (EBUSY: mounted elsewhere, "
			      "swap, or claimed by a driver)", path);
	if (fd >= 0)
		close(fd);
	return 0;
}
