// SPDX-License-Identifier: GPL-2.0
/*
 * Probe: check that a module can call kallsyms_on_each_symbol().
 *
 * The module only links if kallsyms_on_each_symbol() is exported to
 * modules. When it is not, the module loader refuses it with "Unknown
 * symbol" (-ENOENT), which is what the bisect-check guest runner looks for.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/init.h>
#include <linux/kallsyms.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/string.h>

#define PROBE_SYMBOL	"pid_max"

struct probe_walk {
	unsigned long count;
	bool found;
};

static int probe_walk_symbol(void *data, const char *name,
			     struct module *mod, unsigned long addr)
{
	struct probe_walk *walk = data;

	walk->count++;
	if (strcmp(name, PROBE_SYMBOL))
		return 0;

	walk->found = true;
	/* A non-zero return stops the walk. */
	return 1;
}

static int __init kallsyms_each_probe_init(void)
{
	struct probe_walk walk = { };

	kallsyms_on_each_symbol(probe_walk_symbol, &walk);

	if (!walk.found) {
		pr_info("kallsyms_on_each_symbol() walked %lu symbols without finding \"%s\"\n",
			walk.count, PROBE_SYMBOL);
		return -ENOENT;
	}

	pr_info("kallsyms_on_each_symbol() found \"%s\" after %lu symbols\n",
		PROBE_SYMBOL, walk.count);
	return 0;
}

static void __exit kallsyms_each_probe_exit(void)
{
	pr_info("unloaded\n");
}

module_init(kallsyms_each_probe_init);
module_exit(kallsyms_each_probe_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("bisect-check probe: can modules use kallsyms_on_each_symbol()?");
