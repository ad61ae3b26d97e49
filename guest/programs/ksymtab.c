// SPDX-License-Identifier: GPL-2.0
/*
 * ksymtab - a guest program of series.yaml (guest.programs): whether
 * the running kernel exports each symbol named on the command line, as
 * its own symbol table says: an exported symbol has an entry
 * __ksymtab_SYMBOL in /proc/kallsyms (CONFIG_KALLSYMS_ALL).
 *
 * Usage: ksymtab SYMBOL...
 * Prints KTAP, one case per symbol ("ok N SYMBOL" when exported, "not ok
 * N SYMBOL" when not), and exits 0 when every one is exported, 1 when
 * one is not, 2 when /proc/kallsyms cannot be read or has no __ksymtab_
 * entry at all (a kernel without KALLSYMS_ALL cannot answer).
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PREFIX		"__ksymtab_"
#define LINE_MAX	512

int main(int argc, char **argv)
{
	char line[LINE_MAX], name[LINE_MAX];
	int *found, i, entries = 0, missing = 0;
	FILE *f;

	if (argc < 2) {
		fprintf(stderr, "usage: ksymtab SYMBOL...\n");
		return 2;
	}
	found = calloc(argc, sizeof(*found));
	f = fopen("/proc/kallsyms", "r");
	if (!found || !f) {
		perror("ksymtab: /proc/kallsyms");
		return 2;
	}
	/* "address type name [module]" */
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%*s %*s %511s", name) != 1 ||
		    strncmp(name, PREFIX, strlen(PREFIX)))
			continue;
		entries++;
		for (i = 1; i < argc; i++)
			if (!strcmp(name + strlen(PREFIX), argv[i]))
				found[i] = 1;
	}
	fclose(f);
	if (!entries) {
		fprintf(stderr, "ksymtab: no %s entries in /proc/kallsyms (KALLSYMS_ALL?)\n",
			PREFIX);
		return 2;
	}
	printf("KTAP version 1\n1..%d\n", argc - 1);
	for (i = 1; i < argc; i++) {
		printf("%sok %d %s\n", found[i] ? "" : "not ", i, argv[i]);
		missing += !found[i];
	}
	free(found);
	return missing ? 1 : 0;
}
