// SPDX-License-Identifier: GPL-2.0
/*
 * Probe: check that a module can call kallsyms_lookup_name().
 *
 * The module only links if kallsyms_lookup_name() is exported to modules.
 * When it is not, the module loader refuses it with "Unknown symbol"
 * (-ENOENT), which is what the bisect-check guest runner looks for.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/init.h>
#include <linux/kallsyms.h>
#include <linux/kernel.h>
#include <linux/module.h>

#define PROBE_SYMBOL	"pid_max"

static int __init kallsyms_lookup_probe_init(void)
{
	unsigned long addr = kallsyms_lookup_name(PROBE_SYMBOL);

	if (!addr) {
		pr_info("kallsyms_lookup_name(\"%s\") found nothing\n",
			PROBE_SYMBOL);
		return -ENOENT;
	}

	pr_info("kallsyms_lookup_name(\"%s\") found the symbol\n",
		PROBE_SYMBOL);
	return 0;
}

static void __exit kallsyms_lookup_probe_exit(void)
{
	pr_info("unloaded\n");
}

module_init(kallsyms_lookup_probe_init);
module_exit(kallsyms_lookup_probe_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("bisect-check probe: can modules use kallsyms_lookup_name()?");
