#!/usr/bin/env python3
# Generates src/decode/strace/ioctl_names.c: the names of the ioctl
# requests of the system's UAPI headers, sorted by number, for the
# strace front-end (`ioctl(3, KVM_CREATE_VM, 0)`). Run on x86-64 with
# Debian 12's linux-libc-dev (6.1) and libdrm-dev installed:
#   make ioctl-names
# or  python3 scripts/gen_ioctl_names.py > src/decode/strace/ioctl_names.c
# Options: --list prints "0xNUMBER NAME" lines instead of C; --report
# prints, on stderr, the count of names each header gave and the headers
# that were skipped.
#
# Which requests (the rules strace 6.1's own table follows, so that the
# names are the ones it prints; measured by
# tests/integration/strace_ioctl_names.sh):
#   * symbolic: an object-like `#define NAME VALUE`, or an enumerator
#     `NAME = VALUE`, whose VALUE starts with _IO(, _IOR(, _IOW(, _IOWR(,
#     _IOC( or a wrapper spelled PREFIX_IO..( or _SIO..( (DRM_IOWR, _SIOR
#     of sound/soundcard.h...), defined in that header itself. The values
#     are evaluated by compiling a C program that includes the header and
#     prints each one (the size of the argument type is part of the
#     number); a name whose value does not compile (a type the header
#     does not define) is dropped, and a header that does not compile
#     even with what it needs first (PREREQ, PRELUDE) is skipped and
#     named in the output's header comment;
#   * hex: the old requests written as plain 16-bit numbers (terminal
#     0x54xx, socket 0x89xx, HDIO 0x03xx...) of the headers in HEX, where
#     the number's high byte is the one the header's family uses;
#   * names strace leaves out are left out (EXCLUDE, KVM_OTHER_ARCH,
#     LEFT_OUT): the requests of another architecture in linux/kvm.h,
#     second spellings, a libdrm header the kernel does not have.
# Names sharing a number are printed as strace does: all of them, in
# alphabetical order, joined by " or ".
import os
import re
import subprocess
import sys
import tempfile
import textwrap

INC = "/usr/include"
# (include prefix, directory). Headers are named <prefix/file.h>.
ROOTS = [
    ("linux", INC + "/linux"),
    ("asm", INC + "/x86_64-linux-gnu/asm"),
    ("asm-generic", INC + "/asm-generic"),
    ("sound", INC + "/sound"),
    ("mtd", INC + "/mtd"),
    ("rdma", INC + "/rdma"),
    ("scsi", INC + "/scsi"),
    ("video", INC + "/video"),
    ("misc", INC + "/misc"),
    ("xen", INC + "/xen"),
    # The kernel's drm/ UAPI headers: Debian ships them in libdrm-dev, in
    # libdrm/; a drm/ link to it in a scratch directory serves <drm/x.h>.
    ("drm", INC + "/libdrm"),
]
# libdrm also holds its library's headers: only the kernel's are read.
DRM_KERNEL = re.compile(r"^(drm|drm_mode|drm_fourcc|.*_drm)\.h$")

# Headers with requests written as plain numbers: (header, high bytes).
HEX = [
    ("linux/hdreg.h", "03"),
    ("scsi/sg.h", "22"),
    ("linux/fb.h", "46"),
    ("linux/kd.h", "4b"),
    ("linux/loop.h", "4c"),
    ("linux/cdrom.h", "53"),
    ("scsi/scsi.h", "53"),
    ("scsi/scsi_ioctl.h", "53"),
    ("asm-generic/ioctls.h", "46|54|66|74"),
    ("linux/vt.h", "56"),
    ("asm-generic/sockios.h", "89"),
    ("linux/sockios.h", "89"),
    ("linux/wireless.h", "8b"),
]

# What a header needs included before it to compile on its own.
PREREQ = {
    "asm-generic/ioctls.h": ["asm/termbits.h", "linux/serial.h"],
    "asm/ioctls.h": ["asm/termbits.h", "linux/serial.h"],
    "linux/atm_eni.h": ["linux/atm.h"],
    "linux/atm_he.h": ["linux/atm.h"],
    "linux/atm_idt77105.h": ["linux/atm.h"],
    "linux/atm_nicstar.h": ["linux/atm.h"],
    "linux/atm_tcp.h": ["linux/atm.h"],
    "linux/atm_zatm.h": ["linux/atm.h"],
    "linux/atmarp.h": ["linux/atm.h"],
    "linux/atmclip.h": ["linux/atm.h"],
    "linux/atmlec.h": ["linux/atm.h"],
    "linux/atmmpc.h": ["linux/atm.h"],
    "linux/atmsvc.h": ["linux/atm.h"],
    "linux/sonet.h": ["linux/atmioc.h"],
    "linux/auto_fs.h": ["sys/ioctl.h"],
    "linux/fs.h": ["linux/blktrace_api.h", "linux/fiemap.h"],
    "linux/if_pppox.h": ["netinet/in.h"],
    "linux/if_tun.h": ["linux/filter.h"],
    "linux/ppp-ioctl.h": ["linux/filter.h"],
    "linux/gsmmux.h": ["linux/if.h"],
    "linux/ivtvfb.h": ["linux/videodev2.h"],
    "linux/meye.h": ["linux/videodev2.h"],
    "sound/asequencer.h": ["sound/asound.h"],
    "sound/emu10k1.h": ["sound/asound.h"],
    "sound/sfnt_info.h": ["sound/asound.h"],
}
# Lines put before a header's #include (typedefs it assumes).
PRELUDE = {
    # The 32-bit ABI's argument types the kernel keeps out of UAPI.
    "linux/auto_fs.h": "typedef __u32 compat_ulong_t;\n",
    "linux/usbdevice_fs.h": """struct usbdevfs_ctrltransfer32 {
    __u8 bRequestType, bRequest;
    __u16 wValue, wIndex, wLength;
    __u32 timeout, data;
};
struct usbdevfs_bulktransfer32 { __u32 ep, len, timeout, data; };
struct usbdevfs_disconnectsignal32 { __s32 signr; __u32 context; };
struct usbdevfs_urb32 {
    unsigned char type, endpoint;
    __s32 status;
    __u32 flags, buffer;
    __s32 buffer_length, actual_length, start_frame, number_of_packets;
    __s32 error_count;
    __u32 signr, usercontext;
};
struct usbdevfs_ioctl32 { __s32 ifno, ioctl_code; __u32 data; };
""",
    # Its own struct timeval and timespec would clash with glibc's.
    "linux/coda.h": "#define _LINUX_TIME_H\n",
    "linux/ndctl.h": "#define PAGE_SIZE 0\n",
    "xen/evtchn.h": "typedef uint32_t grant_ref_t;\ntypedef uint16_t domid_t;\n",
    "xen/gntdev.h": "typedef uint32_t grant_ref_t;\ntypedef uint16_t domid_t;\n",
}
# Headers left out: libdrm's copy of a driver's header the kernel no
# longer has (strace reads the kernel's tree).
LEFT_OUT = {"drm/mach64_drm.h"}

# linux/kvm.h defines the requests of every architecture; only the x86
# ones are in an x86-64 strace.
KVM_OTHER_ARCH = re.compile(
    r"^(KVM_ARM_[A-Z0-9_]+|KVM_PPC_[A-Z0-9_]+|KVM_S390_[A-Z0-9_]+|"
    r"KVM_ALLOCATE_RMA|KVM_CREATE_SPAPR_TCE|KVM_CREATE_SPAPR_TCE_64)$")
# Other names strace does not list: a second spelling of another request.
EXCLUDE = {
    "linux/btrfs.h": {"BTRFS_IOC_GET_FSLABEL", "BTRFS_IOC_SET_FSLABEL"},
    "linux/dma-buf.h": {"DMA_BUF_SET_NAME"},
    # The time_t-sized one, PPPIOCGIDLE32 or PPPIOCGIDLE64 by the ABI.
    "linux/ppp-ioctl.h": {"PPPIOCGIDLE"},
    # Requests the kernel removed; glibc's copy of the header keeps them.
    "scsi/scsi.h": {"SCSI_IOCTL_TAGGED_ENABLE", "SCSI_IOCTL_TAGGED_DISABLE"},
    "linux/v4l2-subdev.h": {
        "VIDIOC_SUBDEV_DV_TIMINGS_CAP", "VIDIOC_SUBDEV_ENUM_DV_TIMINGS",
        "VIDIOC_SUBDEV_ENUMSTD", "VIDIOC_SUBDEV_G_DV_TIMINGS",
        "VIDIOC_SUBDEV_G_EDID", "VIDIOC_SUBDEV_G_STD",
        "VIDIOC_SUBDEV_QUERY_DV_TIMINGS", "VIDIOC_SUBDEV_QUERYSTD",
        "VIDIOC_SUBDEV_S_DV_TIMINGS", "VIDIOC_SUBDEV_S_EDID",
        "VIDIOC_SUBDEV_S_STD"},
}

NAME = r"[A-Z][A-Z0-9_]*"
DEFINE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+(" + NAME + r")[ \t]+(.*)$", re.M)
# An enumerator with such a value (linux/android/binder.h's BC_*, BR_*).
ENUMERATOR = re.compile(r"^[ \t]*(" + NAME + r")[ \t]*=[ \t]*(.*)$", re.M)
SYMBOLIC = re.compile(r"^(?:[A-Z]+)?_S?IO(?:WR|W|R|C)?[ \t]*\([^)]")


def text_of(path):
    """The header with comments removed and continued lines joined."""
    with open(path, errors="replace") as f:
        s = f.read()
    s = re.sub(r"/\*.*?\*/", lambda m: re.sub(r"[^\n]", " ", m.group(0)), s,
           flags=re.S)
    s = re.sub(r"//[^\n]*", "", s)
    return s.replace("\\\n", " ")


def headers():
    """Every header under ROOTS, as its #include name."""
    out = []
    for prefix, d in ROOTS:
        if not os.path.isdir(d):
            sys.exit("gen_ioctl_names: %s missing (install linux-libc-dev "
                 "and libdrm-dev)" % d)
        for dirpath, _, files in os.walk(d):
            for f in files:
                if not f.endswith(".h"):
                    continue
                rel = os.path.relpath(os.path.join(dirpath, f), d)
                if prefix == "drm" and not DRM_KERNEL.match(rel):
                    continue
                out.append((prefix + "/" + rel, os.path.join(dirpath, f)))
    return sorted(out)


def symbolic_names(hdr, path):
    names = []
    text = text_of(path)
    for m in list(DEFINE.finditer(text)) + list(ENUMERATOR.finditer(text)):
        if SYMBOLIC.match(m.group(2).strip()):
            names.append(m.group(1))
    skip = EXCLUDE.get(hdr, set())
    if hdr == "linux/kvm.h":
        names = [n for n in names if not KVM_OTHER_ARCH.match(n)]
    return sorted(set(n for n in names if n not in skip))


def hex_names(hdr, high):
    path = os.path.join(INC, hdr)
    rx = re.compile(r"^[ \t]*#[ \t]*define[ \t]+(" + NAME + r")[ \t]+0[xX]((?:"
            + high + r")[0-9a-fA-F]{2})\b", re.M | re.I)
    skip = EXCLUDE.get(hdr, set())
    return [(int(m.group(2), 16), m.group(1)) for m in rx.finditer(text_of(path))
        if m.group(1) not in skip]


def program(hdr, names):
    need = PREREQ.get(hdr, [])
    if hdr.startswith("drm/"):
        need = ["drm/drm.h"] + need
    pre = "".join("#include <%s>\n" % p for p in need)
    lines = ["#include <stdbool.h>", "#include <stdint.h>", "#include <stdio.h>", "#include <sys/types.h>",
         "#include <sys/socket.h>", "#include <linux/types.h>",
         "#include <linux/ioctl.h>", "#include <linux/limits.h>",
         "#include <linux/major.h>",
         PRELUDE.get(hdr, "") + pre + "#include <%s>" % hdr,
         "int main(void)", "{"]
    first = len("\n".join(lines).split("\n")) + 1
    for n in names:
        lines.append('\tprintf("%%#x %s\\n", (unsigned int)(%s));' % (n, n))
    lines += ["\treturn 0;", "}", ""]
    return "\n".join(lines), first


def failed_lines(err, src, first, n):
    """The indices of the names whose printf line an error of gcc's
    output points at (directly, or through the chain of macro expansions
    its notes follow), or None for an error in the header itself."""
    bad = set()
    block = None
    at = re.compile(r"^" + re.escape(src) + r":(\d+):\d+: (error|note|warning)")
    for line in err.splitlines():
        if ": error:" in line or ": warning:" in line:
            if block is not None and not block:
                return None
            block = set() if ": error:" in line else None
        m = at.match(line)
        if m and block is not None:
            k = int(m.group(1)) - first
            if 0 <= k < n:
                block.add(k)
                bad.add(k)
    if block is not None and not block:
        return None
    return bad


def evaluate(hdr, names, tmp):
    """{name: value} for the names whose value compiles, or None when the
    header itself does not compile."""
    names = list(names)
    src = os.path.join(tmp, "p.c")
    exe = os.path.join(tmp, "p")
    for _ in range(200):
        if not names:
            return {}
        text, first = program(hdr, names)
        with open(src, "w") as f:
            f.write(text)
        r = subprocess.run(["gcc", "-Werror=implicit-function-declaration",
                    "-I" + tmp, "-o", exe, src],
                   capture_output=True, text=True)
        if r.returncode == 0:
            break
        bad = failed_lines(r.stderr, src, first, len(names))
        if bad is None:
            return None
        if not bad:
            return None
        names = [n for i, n in enumerate(names) if i not in bad]
    else:
        return None
    out = subprocess.run([exe], capture_output=True, text=True, check=True).stdout
    vals = {}
    for line in out.splitlines():
        v, n = line.split()
        vals[n] = int(v, 16)
    return vals


def collect(report):
    ents = set()
    skipped = []
    with tempfile.TemporaryDirectory() as tmp:
        os.symlink(INC + "/libdrm", os.path.join(tmp, "drm"))
        # drm/via_drm.h includes a header of libdrm's that is not shipped.
        open(os.path.join(tmp, "via_drmclient.h"), "w").close()
        for hdr, path in headers():
            if hdr in LEFT_OUT:
                continue
            names = symbolic_names(hdr, path)
            if not names:
                continue
            vals = evaluate(hdr, names, tmp)
            if vals is None:
                skipped.append(hdr)
                continue
            for n, v in vals.items():
                ents.add((v, n))
            if report:
                print("%s: %d of %d" % (hdr, len(vals), len(names)),
                      file=sys.stderr)
    for hdr, high in HEX:
        got = hex_names(hdr, high)
        ents.update(got)
        if report:
            print("%s: %d (hex)" % (hdr, len(got)), file=sys.stderr)
    if report:
        print("skipped: %s" % (" ".join(skipped) or "none"), file=sys.stderr)
    return sorted(ents), skipped


def emit_c(ents, skipped):
    byval = {}
    for v, n in ents:
        byval.setdefault(v, []).append(n)
    dirs = ", ".join(p + "/" for p, _ in ROOTS if p != "drm")
    about = ("The names of the ioctl requests of the UAPI headers in %s: %s "
             "(asm/ is x86_64-linux-gnu/asm/), and drm/ (libdrm-dev's "
             "libdrm/); values as on x86-64. Sorted by number for a binary "
             "search; the names of a shared number are joined by \" or \". "
             "Headers skipped (they do not compile on their own): %s."
             % (INC, dirs, ", ".join(skipped) or "none"))
    print("// SPDX-License-Identifier: GPL-2.0")
    print("/*")
    print(" * GENERATED by scripts/gen_ioctl_names.py: do not edit; regenerate")
    print(" * with `make ioctl-names` (x86-64, Debian 12's linux-libc-dev 6.1 and")
    print(" * libdrm-dev installed).")
    print(" *")
    for line in textwrap.wrap(about, 72):
        print(" * " + line)
    print(" */")
    print('#include "ioctl_names.h"')
    print()
    print("const struct ioctl_name ioctl_names[] = {")
    for v in sorted(byval):
        print('\t{ %#010x, "%s" },' % (v, " or ".join(sorted(byval[v]))))
    print("};")
    print()
    print("const unsigned int ioctl_names_n = sizeof(ioctl_names) / sizeof(ioctl_names[0]);")


def main():
    args = sys.argv[1:]
    ents, skipped = collect("--report" in args)
    if "--list" in args:
        for v, n in ents:
            print("%#x %s" % (v, n))
        return
    emit_c(ents, skipped)


if __name__ == "__main__":
    main()
