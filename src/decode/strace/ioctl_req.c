// SPDX-License-Identifier: GPL-2.0
/*
 * The name of an ioctl request, as strace 6.1 prints it in the second
 * argument. Most come from the generated table (ioctl_names.c, sorted by
 * number: a binary search). Some families put a length or an index in
 * the number's fields, and strace names them from those: EVIOCGNAME(256),
 * EVIOCGBIT(EV_KEY, 96), EVIOCGABS(ABS_X), HIDIOCGRAWNAME(128),
 * MIXER_READ(1), SPI_IOC_MESSAGE(32)... When the table also names the
 * number, both print: "MIXER_READ(1) or MEMGETINFO".
 */
#include <linux/input.h>
#include <linux/ioctl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "decode/strace/ioctl_names.h"
#include "decode/strace/strace_int.h"

const char *ioctl_table_name(uint32_t req)
{
	unsigned int lo = 0, hi = ioctl_names_n;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (ioctl_names[mid].val == req)
			return ioctl_names[mid].name;
		if (ioctl_names[mid].val < req)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static const struct xlat_ent evdev_ev_e[] = {
	XE(EV_SYN), XE(EV_KEY), XE(EV_REL), XE(EV_ABS), XE(EV_MSC), XE(EV_SW),
	XE(EV_LED), XE(EV_SND), XE(EV_REP), XE(EV_FF),	XE(EV_PWR), XE(EV_FF_STATUS),
};

static const struct xlat_ent evdev_abs_e[] = {
	XE(ABS_X),
	XE(ABS_Y),
	XE(ABS_Z),
	XE(ABS_RX),
	XE(ABS_RY),
	XE(ABS_RZ),
	XE(ABS_THROTTLE),
	XE(ABS_RUDDER),
	XE(ABS_WHEEL),
	XE(ABS_GAS),
	XE(ABS_BRAKE),
	XE(ABS_HAT0X),
	XE(ABS_HAT0Y),
	XE(ABS_HAT1X),
	XE(ABS_HAT1Y),
	XE(ABS_HAT2X),
	XE(ABS_HAT2Y),
	XE(ABS_HAT3X),
	XE(ABS_HAT3Y),
	XE(ABS_PRESSURE),
	XE(ABS_DISTANCE),
	XE(ABS_TILT_X),
	XE(ABS_TILT_Y),
	XE(ABS_TOOL_WIDTH),
	XE(ABS_VOLUME),
	XE(ABS_PROFILE),
	XE(ABS_MISC),
	XE(ABS_RESERVED),
	XE(ABS_MT_SLOT),
	XE(ABS_MT_TOUCH_MAJOR),
	XE(ABS_MT_TOUCH_MINOR),
	XE(ABS_MT_WIDTH_MAJOR),
	XE(ABS_MT_WIDTH_MINOR),
	XE(ABS_MT_ORIENTATION),
	XE(ABS_MT_POSITION_X),
	XE(ABS_MT_POSITION_Y),
	XE(ABS_MT_TOOL_TYPE),
	XE(ABS_MT_BLOB_ID),
	XE(ABS_MT_TRACKING_ID),
	XE(ABS_MT_PRESSURE),
	XE(ABS_MT_DISTANCE),
	XE(ABS_MT_TOOL_X),
	XE(ABS_MT_TOOL_Y),
};
static const struct xlat x_evdev_ev = { evdev_ev_e, sizeof(evdev_ev_e) / sizeof(evdev_ev_e[0]), 0 };
static const struct xlat x_evdev_abs = { evdev_abs_e, sizeof(evdev_abs_e) / sizeof(evdev_abs_e[0]),
					 0 };

/* Appends at buf + k as snprintf would, never past len (the text is cut
 * there); returns k plus the length the text has. */
__attribute__((format(printf, 4, 5))) static int put(char *buf, size_t len, int k, const char *fmt,
						     ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	if ((size_t)k < len)
		n = vsnprintf(buf + k, len - k, fmt, ap);
	else
		n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	return k + n;
}

/* An event type or axis: its name, or the number and (but inside -X
 * verbose's comment) what it would be. */
static int sym(char *buf, size_t len, int k, const struct xlat *x, unsigned int v,
	       const char *unknown, int verbose)
{
	const char *n = xlat_name(x, v);

	if (n)
		return put(buf, len, k, "%s", n);
	if (verbose)
		return put(buf, len, k, "%#x", v);
	return put(buf, len, k, "%#x /* %s */", v, unknown);
}

/* The input layer's requests ('E'): names with an axis, a type or a
 * buffer length. Returns the length written, 0 for none. */
static int evdev_name(uint32_t req, int verbose, char *buf, size_t len)
{
	static const char *const lens[] = {
		[0x06] = "EVIOCGNAME", [0x07] = "EVIOCGPHYS",	 [0x08] = "EVIOCGUNIQ",
		[0x09] = "EVIOCGPROP", [0x0a] = "EVIOCGMTSLOTS", [0x18] = "EVIOCGKEY",
		[0x19] = "EVIOCGLED",  [0x1a] = "EVIOCGSND",	 [0x1b] = "EVIOCGSW",
	};
	unsigned int nr = _IOC_NR(req), size = _IOC_SIZE(req);
	int k;

	if (_IOC_DIR(req) == _IOC_WRITE && nr >= 0xc0 && nr < 0xc0 + 0x40) {
		k = put(buf, len, 0, "EVIOCSABS(");
		k = sym(buf, len, k, &x_evdev_abs, nr - 0xc0, "ABS_???", verbose);
		return put(buf, len, k, ")");
	}
	if (_IOC_DIR(req) != _IOC_READ)
		return 0;
	if (nr >= 0x20 && nr < 0x20 + 0x20) {
		k = put(buf, len, 0, "EVIOCGBIT(");
		if (nr == 0x20)
			k = put(buf, len, k, "0");
		else
			k = sym(buf, len, k, &x_evdev_ev, nr - 0x20, "EV_???", verbose);
		return put(buf, len, k, ", %u)", size);
	}
	if (nr >= 0x40 && nr < 0x40 + 0x40) {
		k = put(buf, len, 0, "EVIOCGABS(");
		k = sym(buf, len, k, &x_evdev_abs, nr - 0x40, "ABS_???", verbose);
		return put(buf, len, k, ")");
	}
	if (nr < sizeof(lens) / sizeof(lens[0]) && lens[nr])
		return snprintf(buf, len, "%s(%u)", lens[nr], size);
	return 0;
}

/* hidraw's requests ('H') with a buffer length. */
static int hid_name(uint32_t req, char *buf, size_t len)
{
	const char *n = NULL;

	if (_IOC_DIR(req) == _IOC_READ) {
		switch (_IOC_NR(req)) {
		case 0x04:
			n = "HIDIOCGRAWNAME";
			break;
		case 0x05:
			n = "HIDIOCGRAWPHYS";
			break;
		case 0x06:
			n = "HIDIOCSFEATURE";
			break;
		case 0x08:
			n = "HIDIOCGRAWUNIQ";
			break;
		case 0x12:
			n = "HIDIOCGPHYS";
			break;
		}
	} else if (_IOC_DIR(req) == (_IOC_READ | _IOC_WRITE)) {
		if (_IOC_NR(req) == 0x06)
			n = "HIDIOCSFEATURE";
		else if (_IOC_NR(req) == 0x07)
			n = "HIDIOCGFEATURE";
	}
	return n ? snprintf(buf, len, "%s(%u)", n, _IOC_SIZE(req)) : 0;
}

/* The form named from the number's fields, or 0. */
static int field_name(uint32_t req, int verbose, char *buf, size_t len)
{
	unsigned int dir = _IOC_DIR(req), nr = _IOC_NR(req);

	switch (_IOC_TYPE(req)) {
	case '!':
		/* SECCOMP_IOCTL_NOTIF_ID_VALID as first (mis)defined. */
		if (req == _IOC(_IOC_READ, '!', 2, sizeof(uint64_t)))
			return snprintf(buf, len, "SECCOMP_IOCTL_NOTIF_ID_VALID_WRONG_DIR");
		return 0;
	case 'E':
		return evdev_name(req, verbose, buf, len);
	case 'H':
		return hid_name(req, buf, len);
	case 'M':
		if (dir == _IOC_WRITE)
			return snprintf(buf, len, "MIXER_WRITE(%u)", nr);
		if (dir == _IOC_READ)
			return snprintf(buf, len, "MIXER_READ(%u)", nr);
		return 0;
	case 'U':
		if (dir == _IOC_READ && nr == 0x2c)
			return snprintf(buf, len, "UI_GET_SYSNAME(%u)", _IOC_SIZE(req));
		return 0;
	case 'j':
		if (dir == _IOC_READ && nr == 0x13)
			return snprintf(buf, len, "JSIOCGNAME(%u)", _IOC_SIZE(req));
		return 0;
	case 'k':
		if (dir == _IOC_WRITE && nr == 0)
			return snprintf(buf, len, "SPI_IOC_MESSAGE(%u)", _IOC_SIZE(req));
		return 0;
	}
	return 0;
}

const char *ioctl_req_name(uint32_t req, int verbose, char *buf, size_t len)
{
	const char *n = ioctl_table_name(req);
	int k = field_name(req, verbose, buf, len);

	if (k <= 0)
		return n;
	if (n)
		put(buf, len, k, " or %s", n);
	return buf;
}
