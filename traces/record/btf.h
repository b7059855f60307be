/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Just enough of the kernel's BTF (/sys/kernel/btf/vmlinux) to find where
 * a member lies in a struct: kprobe events of kernels before 6.6 cannot
 * name a field (dev->last_residency_ns), only an offset from a register
 * or an argument, and the offset depends on the kernel's build.
 */
#ifndef IDLELAB_BTF_H
#define IDLELAB_BTF_H

#include <stddef.h>

struct idl_err;

/*
 * The byte offset of member @member of struct @strct (members of its
 * anonymous structs and unions included) in the BTF blob @buf of @len
 * bytes, in this machine's byte order.  -1 with @err set when the blob
 * is not BTF ("BTF: offset N: ..."), is damaged, or has no such struct
 * or member (or it is a bit field that does not start a byte).
 */
long btf_member_offset(const void *buf, size_t len, const char *strct,
		       const char *member, struct idl_err *err);

/* The same for a BTF file: -1 also when it cannot be read (@err says
 * why, errno set). */
long btf_file_member_offset(const char *path, const char *strct,
			    const char *member, struct idl_err *err);

#endif
