// SPDX-License-Identifier: GPL-2.0
/*
 * Probe: check that a module can still find any symbol's address through
 * a kprobe, whatever the kernel exports.
 *
 * Unexporting kallsyms_lookup_name() does not close this route: a kprobe
 * registered by symbol name is resolved by the kernel itself, and the
 * probe's address is then known to the module. With the address of
 * kallsyms_lookup_name() the module can look up any other symbol. The
 * module loads (0) when both steps work, and is refused with -ENOENT when
 * either does not, which is what the bisect-check guest runner looks for.
 * It needs CONFIG_KPROBES (series.yaml asks for it, guest.run config).
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/module.h>

#define ROUTE_SYMBOL	"kallsyms_lookup_name"
#define PROBE_SYMBOL	"pid_max"

typedef unsigned long (*lookup_fn)(const char *name);

static int __init kprobe_lookup_probe_init(void)
{
	struct kprobe kp = { .symbol_name = ROUTE_SYMBOL };
	unsigned long addr;
	lookup_fn lookup;
	int ret;

	ret = register_kprobe(&kp);
	if (ret) {
		pr_info("register_kprobe(\"%s\") failed: %d\n", ROUTE_SYMBOL, ret);
		return -ENOENT;
	}
	lookup = (lookup_fn)kp.addr;
	unregister_kprobe(&kp);
	if (!lookup) {
		pr_info("the kprobe on %s has no address\n", ROUTE_SYMBOL);
		return -ENOENT;
	}

	addr = lookup(PROBE_SYMBOL);
	if (!addr) {
		pr_info("%s(\"%s\") through the kprobe found nothing\n",
			ROUTE_SYMBOL, PROBE_SYMBOL);
		return -ENOENT;
	}

	pr_info("a kprobe gave %s, which found \"%s\"\n", ROUTE_SYMBOL,
		PROBE_SYMBOL);
	return 0;
}

static void __exit kprobe_lookup_probe_exit(void)
{
	pr_info("unloaded\n");
}

module_init(kprobe_lookup_probe_init);
module_exit(kprobe_lookup_probe_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("bisect-check probe: can a module find any symbol through a kprobe?");
