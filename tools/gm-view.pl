#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0
#
# gm-view.pl - what of a patch the kernel's scripts/get_maintainer.pl
# reads, for the key of a cell that runs it (tools/inputs.sh,
# input_commit_gm_view). get_maintainer.pl, given a patch on stdin,
# takes from it three things and nothing else:
#
#   - file names: of "diff --git a/X b/Y", "--- X", "+++ X" (the first
#     path component dropped), "rename from/to X" and " mode change ... X";
#     the first "---"/"+++" line (even in the message) ends the intro;
#   - the K: keyword patterns of MAINTAINERS its lines match (as regexes,
#     with /x): any line of the intro (headers, message, diffstat), then
#     only "+"/"-" lines; a line of one of the kinds above is not matched;
#   - the commit ids of "Fixes:" lines (for git history it looks up only
#     when the tree has a .git).
#
# Their order does not matter: it sorts the files and keeps each keyword
# section once. 6.1 reads the patch as bytes, 6.12 (`use open
# qw(:std :encoding(UTF-8))`) as UTF-8, which can change what \s, \w or
# "." match: the view holds both readings.
#
# The K: patterns are Perl regexes, so this is Perl (the rest of
# bisect-check's parsing is C, tools/src). Commands:
#
#   gm-view.pl script < get_maintainer.pl
#	"known" when its patch loop and MAINTAINERS reader are those
#	this view reproduces (by their text), else "other": then only the
#	whole patch can key what it says;
#   gm-view.pl keywords < MAINTAINERS
#	its K: patterns, one line: per reading ("bytes", "utf8"), the
#	reading's name, then "INDEX:HEX" each (INDEX as get_maintainer.pl
#	numbers its MAINTAINERS entries, HEX the pattern's bytes);
#   gm-view.pl patch < PATCH 3< KEYWORDS-LINE
#	the view of the patch, per reading: files sorted and unique,
#	Fixes: ids in order, the indexes of the K: patterns matched.
#
# Exits 1 on a usage error; dies (a pattern that does not compile, bad
# input): the caller then keys by the whole patch.

use strict;
use warnings;
use Digest::SHA qw(sha1_hex);

# The sha1 of the parts of 6.1's get_maintainer.pl that decide how it
# reads a patch (script_text(): 6.12's are the same), and its lines
# that change how it decodes or matches text: none (6.1), or 6.12's.
my $KNOWN = 'e0ad13a706c46d40cdff1e10048135b807de542a';
my %PRAGMAS = ('' => 1, "use open qw(:std :encoding(UTF-8));\n" => 1);
my @READINGS = ('bytes', 'utf8');

# script_text(): the parts of get_maintainer.pl text $1 that decide how
# it reads a patch and MAINTAINERS (its #! line, the patch loop,
# read_maintainer_file()), or undef; and its lines that change how text
# is decoded or matched (use open, utf8, bytes, encoding, locale,
# feature, a perl version; binmode), joined.
sub script_text
{
	my ($text) = @_;
	my ($first) = $text =~ /\A(.*\n)/;
	my ($loop) = $text =~ /^(\s*open\(my \$patch, "< \$file"\)\n.*?^\s*close\(\$patch\);\n)/ms;
	my ($reader) = $text =~ /^(sub read_maintainer_file \{\n.*?^\}\n)/ms;
	my @pragmas = $text =~
		/^(\s*(?:(?:use|no)\s+(?:open|utf8|bytes|encoding|locale|feature|v?5)\b|binmode\b).*\n)/mg;

	return (undef, '') unless defined $first && defined $loop && defined $reader;
	return ($first . $loop . $reader, join('', @pragmas));
}

# handle(): a read handle on the bytes in $1, read as reading $2.
sub handle
{
	my ($bytes, $reading) = @_;
	my $layer = $reading eq 'utf8' ? '<:encoding(UTF-8)' : '<:raw';

	open(my $fh, $layer, \$bytes) or die "gm-view: cannot read a string: $!\n";
	return $fh;
}

# keywords(): MAINTAINERS text $1 as read by reading $2: its K: patterns
# as [index, pattern], the index counting its entries as
# read_maintainer_file() does.
sub keywords
{
	my ($bytes, $reading) = @_;
	my $fh = handle($bytes, $reading);
	my ($n, @kw) = (0);

	while (<$fh>) {
		my $line = $_;

		chomp $line;
		if ($line =~ m/^([A-Z]):\s*(.*)/) {
			push(@kw, [$n, $2]) if $1 eq 'K';
			$n++;
		} elsif (!(/^\s*$/ || /^\s*\#/)) {
			$n++;
		}
	}
	return @kw;
}

# view(): the view of patch text $1 read as reading $2, with keywords
# @$3 ([index, pattern]).
sub view
{
	my ($bytes, $reading, $kw) = @_;
	my $fh = handle($bytes, $reading);
	my $prefix = '';
	my (@files, @fixes, %file, %fix, %matched);

	while (<$fh>) {
		my $line = $_;

		if (m/^ mode change [0-7]+ => [0-7]+ (\S+)\s*$/) {
			push(@files, $1);
		} elsif (m/^rename (?:from|to) (\S+)\s*$/) {
			push(@files, $1);
		} elsif (m/^diff --git a\/(\S+) b\/(\S+)\s*$/) {
			push(@files, $1, $2);
		} elsif (m/^Fixes:\s+([0-9a-fA-F]{6,40})/) {
			push(@fixes, $1);
		} elsif (m/^\+\+\+\s+(\S+)/ || m/^---\s+(\S+)/) {
			my $name = $1;

			$name =~ s@^[^/]*/@@;
			$name =~ s@\n@@;
			push(@files, $name);
			$prefix = '^[+-].*';
		} elsif (m/^\@\@ -(\d+),(\d+)/) {
			# A hunk's header: matched against no keyword.
		} else {
			foreach my $k (@$kw) {
				$matched{$k->[0]} = 1 if $line =~ m/${prefix}$k->[1]/x;
			}
		}
	}
	$file{$_} = 1 foreach @files;
	@fixes = grep { !$fix{$_}++ } @fixes;
	my $out = join('', "reading $reading\n", map({ "file $_\n" } sort keys %file),
		map({ "fixes $_\n" } @fixes),
		map({ "keyword $_\n" } sort { $a <=> $b } keys %matched));
	utf8::encode($out) if $reading eq 'utf8';
	return $out;
}

# patch_keywords(): the keywords line on file descriptor 3 (what the
# keywords command printed), as reading => [[index, pattern], ...].
sub patch_keywords
{
	my ($reading, %kw);

	open(my $fd3, '<&=', 3) or die "gm-view: patch: no keywords on fd 3\n";
	binmode($fd3);
	foreach my $word (split(' ', <$fd3> // '')) {
		if (grep { $_ eq $word } @READINGS) {
			$reading = $word;
			$kw{$reading} = [];
		} elsif ($word =~ /^(\d+):((?:[0-9a-f]{2})*)$/ && defined $reading) {
			my ($n, $pat) = ($1, pack('H*', $2));

			if ($reading eq 'utf8') {
				utf8::decode($pat) or die "gm-view: patch: keyword $n: no UTF-8\n";
				utf8::upgrade($pat);
			}
			push(@{$kw{$reading}}, [$n, $pat]);
		} else {
			die "gm-view: patch: bad keywords word '$word'\n";
		}
	}
	exists $kw{$_} or die "gm-view: patch: no keywords of reading $_\n" foreach @READINGS;
	return %kw;
}

my $cmd = shift(@ARGV) // '';
# Reading bytes that are no UTF-8 as UTF-8 warns, as get_maintainer.pl
# does in its own log: here it would be the driver's output.
$SIG{__WARN__} = sub { };
binmode(STDIN);
binmode(STDOUT);
my $in = do { local $/; <STDIN> } // '';

if ($cmd eq 'script') {
	my ($text, $pragmas) = script_text($in);

	print((defined $text && sha1_hex($text) eq $KNOWN && $PRAGMAS{$pragmas}) ?
		"known\n" : "other\n");
} elsif ($cmd eq 'keywords') {
	my @out;

	foreach my $reading (@READINGS) {
		push(@out, $reading);
		foreach my $k (keywords($in, $reading)) {
			my $pat = $k->[1];

			utf8::encode($pat) if $reading eq 'utf8';
			push(@out, "$k->[0]:" . unpack('H*', $pat));
		}
	}
	print(join(' ', @out), "\n");
} elsif ($cmd eq 'patch') {
	my %kw = patch_keywords();

	print(view($in, $_, $kw{$_})) foreach @READINGS;
} else {
	print STDERR "usage: gm-view.pl script|keywords|patch < FILE (patch: keywords on fd 3)\n";
	exit 1;
}
