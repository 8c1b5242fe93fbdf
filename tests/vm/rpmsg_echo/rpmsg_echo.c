// SPDX-License-Identifier: GPL-2.0
/*
 * rpmsg_echo: an RPMsg bus whose far end is an echo firmware, in the kernel,
 * for testing RPMsg user space (perfguide's msg group) where no remote
 * processor exists (a PC, a VM).
 *
 * It registers what a virtio RPMsg device registers for a real remote: an
 * "rpmsg_ns" device (the name service), an "rpmsg_ctrl" device
 * (/dev/rpmsg_ctrlN) and, through a name-service announcement that the
 * "remote" sends, one channel per echo endpoint, named `service`, at
 * addresses `addr`, `addr` + 1, ... Every message sent to one of those
 * addresses is echoed back to its sender, unchanged, by a single worker
 * (the remote core), in order.
 *
 * Flow control works as virtio_rpmsg_bus's: `buffers` transmit buffers are
 * shared by every endpoint; a message holds one until the remote has taken
 * it (after `delay_us`); with none free, rpmsg_send() waits (15 s at most)
 * and rpmsg_trysend() (a write on an O_NONBLOCK /dev/rpmsgN) fails with
 * -ENOMEM, and poll() reports POLLOUT only while a buffer is free. Payloads
 * longer than 496 bytes (512-byte buffers less the 16-byte header) are
 * refused with -EMSGSIZE.
 *
 * Writing 1 to /sys/module/rpmsg_echo/parameters/stop makes the remote
 * stop answering: messages are taken and dropped (counted in `dropped`).
 * `echoed` counts the messages echoed, `peak` the most buffers in use at once.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/delay.h>
#include <linux/device.h>
#include <linux/idr.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/poll.h>
#include <linux/rpmsg.h>
#include <linux/rpmsg/ns.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#include "rpmsg_internal.h"

#define ECHO_BUF_SIZE 512
#define ECHO_HDR_SIZE 16	/* struct rpmsg_hdr on a virtio bus */
#define ECHO_MTU (ECHO_BUF_SIZE - ECHO_HDR_SIZE)
#define ECHO_RESERVED_ADDRESSES 1024	/* local addresses start here */
#define ECHO_SEND_WAIT_MS 15000

static char *service = "rpmsg-echo";
module_param(service, charp, 0444);
MODULE_PARM_DESC(service, "name the echo endpoints announce (rpmsg-echo)");
static unsigned int addr = 0x100;
module_param(addr, uint, 0444);
MODULE_PARM_DESC(addr, "address of the first echo endpoint (256; not 53, the name service)");
static unsigned int endpoints = 1;
module_param(endpoints, uint, 0444);
MODULE_PARM_DESC(endpoints, "echo endpoints announced, at addr, addr+1... (1)");
static unsigned int buffers = 256;
module_param(buffers, uint, 0444);
MODULE_PARM_DESC(buffers, "transmit buffers shared by all endpoints (256, as virtio)");
static unsigned int delay_us;
module_param(delay_us, uint, 0644);
MODULE_PARM_DESC(delay_us, "time the remote takes per message, in microseconds (0)");
static bool stop;
module_param(stop, bool, 0644);
MODULE_PARM_DESC(stop, "1: the remote stops answering (messages are dropped)");
static unsigned long echoed, dropped;
static unsigned int peak;
module_param(peak, uint, 0644);
MODULE_PARM_DESC(peak, "most buffers in use at once so far (write 0 to start again)");
module_param(echoed, ulong, 0444);
MODULE_PARM_DESC(echoed, "messages echoed so far");
module_param(dropped, ulong, 0444);
MODULE_PARM_DESC(dropped, "messages the remote dropped (stopped, or no such address)");

struct echo_msg {
	struct list_head node;
	u32 src, dst;
	int len;
	u8 data[ECHO_MTU];
};

struct echo_ept {
	struct rpmsg_endpoint ept;
};

struct echo_rpdev {
	struct rpmsg_device rpdev;
};

/* The whole bus: one remote, one set of buffers, one address space. */
static struct {
	struct device *root;
	struct echo_msg *pool;
	spinlock_t lock;		/* free, nfree, rx */
	struct list_head free, rx;
	unsigned int nfree;
	wait_queue_head_t sendq;
	struct workqueue_struct *wq;
	struct work_struct work;
	struct mutex epts_lock;
	struct idr epts;
	struct rpmsg_device *ctrl, *ns;
} bus;

static const struct rpmsg_device_ops echo_device_ops;
static const struct rpmsg_endpoint_ops echo_endpoint_ops;

static struct echo_msg *echo_get_buf(void)
{
	struct echo_msg *m = NULL;
	unsigned long flags;

	spin_lock_irqsave(&bus.lock, flags);
	if (!list_empty(&bus.free)) {
		m = list_first_entry(&bus.free, struct echo_msg, node);
		list_del(&m->node);
		bus.nfree--;
		if (buffers - bus.nfree > READ_ONCE(peak))
			WRITE_ONCE(peak, buffers - bus.nfree);
	}
	spin_unlock_irqrestore(&bus.lock, flags);
	return m;
}

static void echo_put_buf(struct echo_msg *m)
{
	unsigned long flags;

	spin_lock_irqsave(&bus.lock, flags);
	list_add_tail(&m->node, &bus.free);
	bus.nfree++;
	spin_unlock_irqrestore(&bus.lock, flags);
	wake_up_interruptible(&bus.sendq);
}

static void echo_ept_release(struct kref *kref)
{
	kfree(container_of(kref, struct echo_ept, ept.refcount));
}

/* Hands a message from the remote to the local endpoint at `to`. */
static void echo_deliver(u32 to, u32 from, void *data, int len)
{
	struct rpmsg_endpoint *ept;

	mutex_lock(&bus.epts_lock);
	ept = idr_find(&bus.epts, to);
	if (ept)
		kref_get(&ept->refcount);
	mutex_unlock(&bus.epts_lock);
	if (!ept) {
		dropped++;
		return;
	}
	mutex_lock(&ept->cb_lock);
	if (ept->cb)
		ept->cb(ept->rpdev, data, len, ept->priv, from);
	mutex_unlock(&ept->cb_lock);
	kref_put(&ept->refcount, echo_ept_release);
}

static bool echo_is_service(u32 dst)
{
	return dst >= addr && dst - addr < endpoints;
}

/* The remote core: takes each message in order and echoes it. */
static void echo_work(struct work_struct *work)
{
	static u8 data[ECHO_MTU];	/* the worker is single-threaded */
	struct echo_msg *m;
	unsigned long flags;
	u32 src, dst;
	int len;

	for (;;) {
		spin_lock_irqsave(&bus.lock, flags);
		m = list_first_entry_or_null(&bus.rx, struct echo_msg, node);
		if (m)
			list_del(&m->node);
		spin_unlock_irqrestore(&bus.lock, flags);
		if (!m)
			return;
		if (delay_us)
			fsleep(delay_us);
		src = m->src;
		dst = m->dst;
		len = m->len;
		memcpy(data, m->data, len);
		/* The remote has taken the message: its buffer is free again. */
		echo_put_buf(m);
		if (READ_ONCE(stop) || !echo_is_service(dst)) {
			dropped++;
			continue;
		}
		echo_deliver(src, dst, data, len);
		echoed++;
	}
}

static int echo_send_buf(struct rpmsg_endpoint *ept, u32 src, u32 dst,
			 void *data, int len, bool wait)
{
	struct echo_msg *m = NULL;
	unsigned long flags;

	if (len < 0 || len > ECHO_MTU)
		return -EMSGSIZE;
	if (src == RPMSG_ADDR_ANY || dst == RPMSG_ADDR_ANY)
		return -EINVAL;
	if (wait) {
		long left = wait_event_interruptible_timeout(bus.sendq,
					(m = echo_get_buf()) != NULL,
					msecs_to_jiffies(ECHO_SEND_WAIT_MS));
		if (left < 0)
			return left;
		if (!m)
			return -ETIMEDOUT;
	} else {
		m = echo_get_buf();
		if (!m)
			return -ENOMEM;
	}
	m->src = src;
	m->dst = dst;
	m->len = len;
	memcpy(m->data, data, len);
	spin_lock_irqsave(&bus.lock, flags);
	list_add_tail(&m->node, &bus.rx);
	spin_unlock_irqrestore(&bus.lock, flags);
	queue_work(bus.wq, &bus.work);
	return 0;
}

static int echo_send(struct rpmsg_endpoint *ept, void *data, int len)
{
	return echo_send_buf(ept, ept->addr, ept->rpdev->dst, data, len, true);
}

static int echo_sendto(struct rpmsg_endpoint *ept, void *data, int len, u32 dst)
{
	return echo_send_buf(ept, ept->addr, dst, data, len, true);
}

static int echo_send_offchannel(struct rpmsg_endpoint *ept, u32 src, u32 dst,
				void *data, int len)
{
	return echo_send_buf(ept, src, dst, data, len, true);
}

static int echo_trysend(struct rpmsg_endpoint *ept, void *data, int len)
{
	return echo_send_buf(ept, ept->addr, ept->rpdev->dst, data, len, false);
}

static int echo_trysendto(struct rpmsg_endpoint *ept, void *data, int len, u32 dst)
{
	return echo_send_buf(ept, ept->addr, dst, data, len, false);
}

static int echo_trysend_offchannel(struct rpmsg_endpoint *ept, u32 src, u32 dst,
				   void *data, int len)
{
	return echo_send_buf(ept, src, dst, data, len, false);
}

static __poll_t echo_poll(struct rpmsg_endpoint *ept, struct file *filp,
			  poll_table *wait)
{
	poll_wait(filp, &bus.sendq, wait);
	return READ_ONCE(bus.nfree) ? EPOLLOUT | EPOLLWRNORM : 0;
}

static ssize_t echo_get_mtu(struct rpmsg_endpoint *ept)
{
	return ECHO_MTU;
}

static void echo_destroy_ept(struct rpmsg_endpoint *ept)
{
	mutex_lock(&bus.epts_lock);
	idr_remove(&bus.epts, ept->addr);
	mutex_unlock(&bus.epts_lock);
	/* A callback running now finishes first; none starts after. */
	mutex_lock(&ept->cb_lock);
	ept->cb = NULL;
	mutex_unlock(&ept->cb_lock);
	kref_put(&ept->refcount, echo_ept_release);
}

static const struct rpmsg_endpoint_ops echo_endpoint_ops = {
	.destroy_ept = echo_destroy_ept,
	.send = echo_send,
	.sendto = echo_sendto,
	.send_offchannel = echo_send_offchannel,
	.trysend = echo_trysend,
	.trysendto = echo_trysendto,
	.trysend_offchannel = echo_trysend_offchannel,
	.poll = echo_poll,
	.get_mtu = echo_get_mtu,
};

static struct rpmsg_endpoint *echo_create_ept(struct rpmsg_device *rpdev,
					      rpmsg_rx_cb_t cb, void *priv,
					      struct rpmsg_channel_info chinfo)
{
	struct echo_ept *e = kzalloc(sizeof(*e), GFP_KERNEL);
	int lo = ECHO_RESERVED_ADDRESSES, hi = 0, id;

	if (!e)
		return NULL;
	kref_init(&e->ept.refcount);
	mutex_init(&e->ept.cb_lock);
	e->ept.rpdev = rpdev;
	e->ept.cb = cb;
	e->ept.priv = priv;
	e->ept.ops = &echo_endpoint_ops;
	if (chinfo.src != RPMSG_ADDR_ANY) {
		lo = chinfo.src;
		hi = chinfo.src + 1;
	}
	mutex_lock(&bus.epts_lock);
	id = idr_alloc(&bus.epts, &e->ept, lo, hi, GFP_KERNEL);
	mutex_unlock(&bus.epts_lock);
	if (id < 0) {
		dev_err(&rpdev->dev, "address %d: %d\n", lo, id);
		kfree(e);
		return NULL;
	}
	e->ept.addr = id;
	return &e->ept;
}

static void echo_release_device(struct device *dev)
{
	struct rpmsg_device *rpdev = to_rpmsg_device(dev);

	kfree(rpdev->driver_override);
	kfree(container_of(rpdev, struct echo_rpdev, rpdev));
}

static struct rpmsg_device *echo_alloc_rpdev(const char *name, u32 src, u32 dst)
{
	struct echo_rpdev *d = kzalloc(sizeof(*d), GFP_KERNEL);

	if (!d)
		return NULL;
	d->rpdev.ops = &echo_device_ops;
	d->rpdev.little_endian = true;
	d->rpdev.src = src;
	d->rpdev.dst = dst;
	d->rpdev.announce = src != RPMSG_ADDR_ANY;
	if (name)
		strscpy(d->rpdev.id.name, name, RPMSG_NAME_SIZE);
	d->rpdev.dev.parent = bus.root;
	d->rpdev.dev.release = echo_release_device;
	return &d->rpdev;
}

/* A channel the remote announced (through rpmsg_ns) or one user space asked
 * for (RPMSG_CREATE_DEV_IOCTL). */
static struct rpmsg_device *echo_create_channel(struct rpmsg_device *rpdev,
						struct rpmsg_channel_info *chinfo)
{
	struct rpmsg_device *ch;
	struct device *old = rpmsg_find_device(bus.root, chinfo);

	if (old) {
		put_device(old);
		return NULL;
	}
	ch = echo_alloc_rpdev(chinfo->name, chinfo->src, chinfo->dst);
	if (!ch)
		return NULL;
	/* rpmsg_register_device drops the device itself on failure. */
	return rpmsg_register_device(ch) ? NULL : ch;
}

static int echo_release_channel(struct rpmsg_device *rpdev,
				struct rpmsg_channel_info *chinfo)
{
	return rpmsg_unregister_device(bus.root, chinfo);
}

static const struct rpmsg_device_ops echo_device_ops = {
	.create_channel = echo_create_channel,
	.release_channel = echo_release_channel,
	.create_ept = echo_create_ept,
};

/* The remote's name-service announcement of one echo endpoint, as its
 * firmware sends it to address 53 once it runs. */
static void echo_announce(u32 at)
{
	struct rpmsg_ns_msg msg = {};
	struct rpmsg_channel_info chinfo = {};
	bool have_ns;

	strscpy(msg.name, service, sizeof(msg.name));
	msg.addr = cpu_to_rpmsg32(bus.ns, at);
	msg.flags = cpu_to_rpmsg32(bus.ns, RPMSG_NS_CREATE);
	mutex_lock(&bus.epts_lock);
	have_ns = idr_find(&bus.epts, RPMSG_NS_ADDR) != NULL;
	mutex_unlock(&bus.epts_lock);
	if (have_ns) {
		echo_deliver(RPMSG_NS_ADDR, RPMSG_NS_ADDR, &msg, sizeof(msg));
		return;
	}
	/* Without rpmsg_ns, create the channel as it would. */
	pr_warn("no name service (load rpmsg_ns first): creating %s directly\n", service);
	strscpy(chinfo.name, service, sizeof(chinfo.name));
	chinfo.src = RPMSG_ADDR_ANY;
	chinfo.dst = at;
	echo_create_channel(bus.ns, &chinfo);
}

static int echo_unregister_child(struct device *dev, void *data)
{
	device_unregister(dev);
	return 0;
}

static void echo_cleanup(void)
{
	if (bus.root) {
		/* The channels, the control and the name-service devices. */
		device_for_each_child_reverse(bus.root, NULL, echo_unregister_child);
		root_device_unregister(bus.root);
	}
	if (bus.wq)
		destroy_workqueue(bus.wq);
	kfree(bus.pool);
	idr_destroy(&bus.epts);
}

static int __init echo_init(void)
{
	unsigned int i;
	int ret;

	/* The remote's addresses are below the ones Linux hands out, and
	 * leave out the name service's. */
	if (!buffers || buffers > 4096 || !endpoints || !addr ||
	    addr + endpoints > ECHO_RESERVED_ADDRESSES ||
	    (addr <= RPMSG_NS_ADDR && addr + endpoints > RPMSG_NS_ADDR)) {
		pr_err("bad parameters: buffers 1..4096, addr 1..1023 with the endpoints' addresses below 1024 and not 53\n");
		return -EINVAL;
	}
	spin_lock_init(&bus.lock);
	INIT_LIST_HEAD(&bus.free);
	INIT_LIST_HEAD(&bus.rx);
	init_waitqueue_head(&bus.sendq);
	mutex_init(&bus.epts_lock);
	idr_init(&bus.epts);
	INIT_WORK(&bus.work, echo_work);

	ret = -ENOMEM;
	bus.pool = kcalloc(buffers, sizeof(*bus.pool), GFP_KERNEL);
	if (!bus.pool)
		goto fail;
	for (i = 0; i < buffers; i++)
		list_add_tail(&bus.pool[i].node, &bus.free);
	bus.nfree = buffers;
	bus.wq = alloc_ordered_workqueue("rpmsg_echo", WQ_HIGHPRI);
	if (!bus.wq)
		goto fail;

	bus.root = root_device_register("rpmsg-echo");
	if (IS_ERR(bus.root)) {
		ret = PTR_ERR(bus.root);
		bus.root = NULL;
		goto fail;
	}
	/* What virtio_rpmsg_bus registers for each remote: the name service
	 * (binds rpmsg_ns) and the control device (binds rpmsg_ctrl). */
	bus.ns = echo_alloc_rpdev(NULL, 0, 0);
	if (!bus.ns)
		goto fail;
	ret = rpmsg_ns_register_device(bus.ns);
	if (ret) {
		bus.ns = NULL;
		goto fail;
	}
	ret = -ENOMEM;
	bus.ctrl = echo_alloc_rpdev(NULL, 0, 0);
	if (!bus.ctrl)
		goto fail;
	ret = rpmsg_ctrldev_register_device(bus.ctrl);
	if (ret) {
		bus.ctrl = NULL;
		goto fail;
	}
	for (i = 0; i < endpoints; i++)
		echo_announce(addr + i);
	pr_info("%u echo endpoint%s '%s' at 0x%x, %u buffers, delay %u us\n",
		endpoints, endpoints == 1 ? "" : "s", service, addr, buffers, delay_us);
	return 0;
fail:
	echo_cleanup();
	return ret;
}

static void __exit echo_exit(void)
{
	echo_cleanup();
}

module_init(echo_init);
module_exit(echo_exit);
MODULE_DESCRIPTION("RPMsg bus with an in-kernel echo remote, for tests");
MODULE_LICENSE("GPL");
