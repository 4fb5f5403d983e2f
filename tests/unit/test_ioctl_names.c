// SPDX-License-Identifier: GPL-2.0
/* The generated ioctl table and the request names as strace 6.1 prints
 * them (src/decode/strace/ioctl_req.c). */
#include <linux/fs.h>
#include <linux/input.h>
#include <linux/kvm.h>
#include <linux/sockios.h>
#include <mtd/mtd-abi.h>
#include <sys/ioctl.h>

#include "check.h"
#include "decode/strace/ioctl_names.h"

static char buf[512];

static const char *name(uint32_t req)
{
	return ioctl_req_name(req, 0, buf, sizeof(buf));
}

TEST(table_sorted_one_entry_per_number)
{
	CHECK(ioctl_names_n > 2500);
	for (unsigned int i = 1; i < ioctl_names_n; i++)
		CHECK(ioctl_names[i - 1].val < ioctl_names[i].val);
	/* Every entry is found by the binary search. */
	for (unsigned int i = 0; i < ioctl_names_n; i++)
		CHECK(ioctl_table_name(ioctl_names[i].val) == ioctl_names[i].name);
}

TEST(names)
{
	CHECK_EQ_STR(name(TCGETS), "TCGETS");
	CHECK_EQ_STR(name(TCSETS), "SNDCTL_TMR_START or TCSETS");
	CHECK_EQ_STR(name(TCSETSW), "SNDCTL_TMR_STOP or TCSETSW");
	CHECK_EQ_STR(name(FICLONE), "BTRFS_IOC_CLONE or FICLONE");
	CHECK_EQ_STR(name(KVM_CREATE_VM), "KVM_CREATE_VM");
	CHECK_EQ_STR(name(KVM_GET_LAPIC), "KVM_GET_LAPIC");
	CHECK_EQ_STR(name(SIOCGIFINDEX), "SIOCGIFINDEX");
	CHECK_EQ_STR(name(0x8906), "SIOCGSTAMP_OLD");
	CHECK_EQ_STR(name(FIOCLEX), "FIOCLEX");
	CHECK(name(0x0000fe01) == NULL);
	CHECK(name(0) == NULL);
	CHECK(name(0xffffffff) == NULL);
}

TEST(field_names)
{
	CHECK_EQ_STR(name(EVIOCGNAME(256)), "EVIOCGNAME(256)");
	CHECK_EQ_STR(name(EVIOCGBIT(0, 8)), "EVIOCGBIT(0, 8)");
	CHECK_EQ_STR(name(EVIOCGBIT(EV_KEY, 96)), "EVIOCGBIT(EV_KEY, 96)");
	CHECK_EQ_STR(name(EVIOCGBIT(0x1d, 4)), "EVIOCGBIT(0x1d /* EV_??? */, 4)");
	CHECK_EQ_STR(ioctl_req_name(EVIOCGBIT(0x1d, 4), 1, buf, sizeof(buf)), "EVIOCGBIT(0x1d, 4)");
	CHECK_EQ_STR(name(EVIOCGABS(ABS_MT_SLOT)), "EVIOCGABS(ABS_MT_SLOT)");
	CHECK_EQ_STR(name(EVIOCSABS(ABS_Y)), "EVIOCSABS(ABS_Y)");
	CHECK_EQ_STR(name(MEMGETINFO), "MIXER_READ(1) or MEMGETINFO");
	CHECK_EQ_STR(name(_IOC(_IOC_WRITE, 'k', 0, 64)), "SPI_IOC_MESSAGE(64)");
	/* A name longer than the buffer is cut, never overrun. */
	CHECK_EQ_STR(ioctl_req_name(EVIOCGNAME(256), 0, buf, 8), "EVIOCGN");
	CHECK_EQ_STR(ioctl_req_name(EVIOCGBIT(EV_KEY, 96), 0, buf, 12), "EVIOCGBIT(E");
	CHECK_EQ_STR(ioctl_req_name(MEMGETINFO, 0, buf, 16), "MIXER_READ(1) o");
}

int main(void)
{
	RUN(table_sorted_one_entry_per_number);
	RUN(names);
	RUN(field_names);
	CHECK_EXIT();
}
