/* SPDX-License-Identifier: MIT */
/*
 * A file system of the benchmark's own (os.h, os_ownfs_make): a sparse
 * image in the private directory, formatted by mkfs.ext4 with its
 * defaults (a journal), on a loop device, mounted in a mount namespace of
 * this thread's own. Why: on ext4 without a journal a create skips every
 * inode of the group deleted in the last minutes, so os.fs.create there
 * measures the deletes that came before it (docs/methodology-os.md).
 * A fresh ext4 with a journal has neither: every process gets one.
 *
 * Nothing outlives the process, however it ends: the image is unlinked
 * once the loop device holds it, the loop device clears itself when its
 * file system is unmounted (LO_FLAGS_AUTOCLEAR), and the mount is in a
 * namespace that ends with the process. Teardown unmounts it sooner.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/loop.h>
#include <sched.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include "os.h"

extern char **environ;

/* The image's size: room for a step's files at the largest size= the
 * suites sweep, sparse, so only what the files use takes disk space. */
#define OWNFS_BYTES (INT64_C(4) << 30)

/* mkfs.ext4 on path, quietly; 0 when it made the file system. */
static int run_mkfs(const char *path)
{
	static const char *const where[] = { "mkfs.ext4", "/sbin/mkfs.ext4", "/usr/sbin/mkfs.ext4", NULL };
	char *argv[] = { "mkfs.ext4", "-q", "-F", "-E", "lazy_itable_init=1,lazy_journal_init=1,nodiscard",
			 (char *)path, NULL };
	posix_spawn_file_actions_t fa;
	if (posix_spawn_file_actions_init(&fa) != 0)
		return -1;
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	int rc = -1;
	/* posix_spawnp searches PATH for a bare name, not for a path */
	for (int i = 0; where[i] && rc == -1; i++) {
		pid_t pid;
		int st;
		if (posix_spawnp(&pid, where[i], &fa, NULL, argv, environ) != 0)
			continue;
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
		/* found: if it failed, no other copy will do better */
		rc = WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -2;
	}
	posix_spawn_file_actions_destroy(&fa);
	return rc;
}

/* The image on a free loop device that clears itself when unmounted; its
 * path in dev. Returns the device's descriptor, or -1. */
static int attach_loop(int img, char *dev, size_t len)
{
	int ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
	if (ctl < 0)
		return -1;
	int fd = -1;
	/* another program may take the free device first: ask again */
	for (int tries = 0; tries < 8 && fd < 0; tries++) {
		int n = ioctl(ctl, LOOP_CTL_GET_FREE);
		if (n < 0)
			break;
		snprintf(dev, len, "/dev/loop%d", n);
		fd = open(dev, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			break;
		struct loop_info64 info;
		memset(&info, 0, sizeof(info));
		info.lo_flags = LO_FLAGS_AUTOCLEAR;
		if (ioctl(fd, LOOP_SET_FD, img) != 0) {
			close(fd);
			fd = -1;
			if (errno != EBUSY)
				break;
			continue;
		}
		if (ioctl(fd, LOOP_SET_STATUS64, &info) != 0) {
			ioctl(fd, LOOP_CLR_FD, 0);
			close(fd);
			fd = -1;
			break;
		}
	}
	close(ctl);
	return fd;
}

/* The image made and formatted in dir; its descriptor, or -1. */
static int make_image(const char *dir, int64_t bytes)
{
	char path[4200];
	snprintf(path, sizeof(path), "%s/ownfs.img", dir);
	int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		return -1;
	if (ftruncate(fd, (off_t)bytes) != 0 || run_mkfs(path) != 0) {
		close(fd);
		unlink(path);
		return -1;
	}
	unlink(path);	/* the descriptor, then the loop device, hold it */
	return fd;
}

/* A mount namespace of this thread's own, nothing in it shared back. */
static int own_namespace(void)
{
	if (unshare(CLONE_NEWNS) != 0)
		return -1;
	/* A propagation change ignores source and type; named all the same,
	 * as valgrind reads the type string whatever the flags. */
	return mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL);
}

int os_ownfs_make(const char *dir, char *mnt, size_t len)
{
	struct statvfs sv;
	int64_t bytes = OWNFS_BYTES;
	if (statvfs(dir, &sv) == 0 && (int64_t)(sv.f_bavail / 2) * (int64_t)sv.f_frsize < bytes)
		bytes = (int64_t)(sv.f_bavail / 2) * (int64_t)sv.f_frsize;
	if (geteuid() != 0 || bytes < (INT64_C(64) << 20))
		return -1;
	if ((size_t)snprintf(mnt, len, "%s/fs", dir) >= len || mkdir(mnt, 0700) != 0)
		return -1;
	char dev[64];
	int img = make_image(dir, bytes), loop = -1, rc = -1;
	if (img >= 0)
		loop = attach_loop(img, dev, sizeof(dev));
	if (loop >= 0 && own_namespace() == 0 && mount(dev, mnt, "ext4", 0, NULL) == 0)
		rc = 0;
	if (loop >= 0 && rc != 0)
		ioctl(loop, LOOP_CLR_FD, 0);
	if (loop >= 0)
		close(loop);	/* the mount holds the device now */
	if (img >= 0)
		close(img);
	if (rc != 0)
		rmdir(mnt);
	return rc;
}

void os_ownfs_remove(const char *mnt)
{
	if (mnt && *mnt && umount2(mnt, MNT_DETACH) == 0)
		rmdir(mnt);
}
