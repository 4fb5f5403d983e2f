// SPDX-License-Identifier: GPL-2.0
/*
 * Record filters (-p, -e trace=, --events, --since/--until) and the time
 * arguments they take. Filters only ever look at records that
 * sonde_rec_fits() accepted, except for the header fields every record has.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sonde/analysis.h>
#include <sonde/format.h>

unsigned int sonde_syscall_status(const struct sonde_ev_syscall *e)
{
	if (e->hdr.flags & SONDE_SC_UNFINISHED)
		return SONDE_STATUS_DETACHED;
	if (e->hdr.flags & SONDE_SC_NO_RESULT)
		return SONDE_STATUS_UNFINISHED;
	return sonde_syscall_failed(e->ret) ? SONDE_STATUS_FAILED : SONDE_STATUS_SUCCESSFUL;
}

void sonde_filter_init(struct sonde_filter *f)
{
	memset(f, 0, sizeof(*f));
	f->until = UINT64_MAX;
}

int sonde_filter_parse_pids(struct sonde_filter *f, const char *list, char *err, size_t errlen)
{
	const char *p = list;

	do {
		char *end;
		unsigned long v;

		errno = 0;
		v = strtoul(p, &end, 10);
		if (end == p || errno || v == 0 || v > UINT32_MAX || (*end && *end != ',') ||
		    *p == '-' || *p == '+') {
			snprintf(err, errlen,
				 "bad pid in '%s' (at '%.*s'): give positive "
				 "numbers separated by commas, e.g. -p 123,456",
				 list, (int)strcspn(p, ","), p);
			return -EINVAL;
		}
		if (f->npids == SONDE_FILTER_MAX_PIDS) {
			snprintf(err, errlen, "too many pids (at most %d)", SONDE_FILTER_MAX_PIDS);
			return -EINVAL;
		}
		f->pids[f->npids++] = v;
		p = *end ? end + 1 : end;
	} while (*p);
	return 0;
}

/* Bits for one --events token; 0 if unknown. */
static uint32_t filter_type_bits(const char *tok)
{
	int t;

	if (!strcmp(tok, "all"))
		return ~(uint32_t)0;
	if (!strcmp(tok, "sched"))
		return 1u << SONDE_REC_SWITCH | 1u << SONDE_REC_WAKEUP;
	if (!strcmp(tok, "process"))
		return 1u << SONDE_REC_FORK | 1u << SONDE_REC_EXEC | 1u << SONDE_REC_EXIT |
		       1u << SONDE_REC_COMM | 1u << SONDE_REC_PROC | 1u << SONDE_REC_NSPID |
		       1u << SONDE_REC_IMAGE;
	t = sonde_rec_type_lookup(tok);
	return t > 0 ? 1u << t : 0;
}

int sonde_filter_parse_types(struct sonde_filter *f, const char *list, char *err, size_t errlen)
{
	char buf[256], *tok, *save = NULL;
	uint32_t bits = 0, b;
	int neg = *list == '!';

	if (neg)
		list++;
	if (strlen(list) >= sizeof(buf) || !*list) {
		snprintf(err, errlen, "bad event list '%s'", list);
		return -EINVAL;
	}
	strcpy(buf, list);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		b = filter_type_bits(tok);
		if (!b) {
			snprintf(err, errlen,
				 "unknown event type '%s'; types are syscall "
				 "switch wakeup fork exec exit comm proc lost, "
				 "sched, process, all",
				 tok);
			return -EINVAL;
		}
		bits |= b;
	}
	f->types = neg ? ~bits : bits;
	/* An empty mask would mean "all": keep a bit no record uses. */
	if (!f->types)
		f->types = 1u;
	return 0;
}

static int filter_pid_in(const struct sonde_filter *f, uint32_t id)
{
	for (unsigned int i = 0; i < f->npids; i++)
		if (f->pids[i] == id)
			return 1;
	return 0;
}

/* Does the record involve one of the filter's pids or tids? */
static int filter_pids_match(const struct sonde_filter *f, const struct sonde_hdr *rec)
{
	if (filter_pid_in(f, rec->pid) || filter_pid_in(f, rec->tid))
		return 1;
	if (!sonde_rec_fits(rec))
		return 0;
	switch (rec->type) {
	case SONDE_REC_SWITCH: {
		const struct sonde_ev_switch *e = (const void *)rec;

		return filter_pid_in(f, e->next_pid) || filter_pid_in(f, e->next_tid);
	}
	case SONDE_REC_FORK: {
		const struct sonde_ev_fork *e = (const void *)rec;

		return filter_pid_in(f, e->child_pid) || filter_pid_in(f, e->child_tid);
	}
	case SONDE_REC_SIGGEN: {
		const struct sonde_ev_signal *e = (const void *)rec;

		return filter_pid_in(f, e->sender_pid) || filter_pid_in(f, e->sender_tid);
	}
	case SONDE_REC_LOST:
		return 1; /* a hole may hide the pid's events: always show */
	default:
		return 0;
	}
}

int sonde_filter_match(const struct sonde_filter *f, const struct sonde_hdr *rec)
{
	if (f->types) {
		/* A syscall's captured memory goes with the syscall. */
		unsigned int t = rec->type == SONDE_REC_PAYLOAD ? SONDE_REC_SYSCALL : rec->type;

		if (t >= 32 || !(f->types & (1u << t)))
			return 0;
	}
	if (rec->ts < f->since || rec->ts > f->until)
		return 0;
	if (f->npids && !filter_pids_match(f, rec))
		return 0;
	if (rec->type == SONDE_REC_SYSCALL && (f->has_sc || f->status != SONDE_STATUS_ANY)) {
		const struct sonde_ev_syscall *e = (const void *)rec;

		if (!sonde_rec_fits(rec))
			return 0;
		if (f->has_sc && !sonde_sc_set_has_call(&f->sc, e))
			return 0;
		if (f->status && !(f->status & sonde_syscall_status(e)))
			return 0;
	}
	return 1;
}

/* Parses "SS[.frac]" into ns; returns the end or NULL. */
static const char *time_parse_decimal(const char *s, int64_t *ns, int64_t unit)
{
	char *end;
	int64_t whole, frac = 0, scale = unit;

	if (*s < '0' || *s > '9')
		return NULL;
	errno = 0;
	whole = strtoll(s, &end, 10);
	if (errno || whole > INT64_MAX / unit)
		return NULL;
	if (*end == '.') {
		end++;
		while (*end >= '0' && *end <= '9') {
			if (scale >= 10) {
				scale /= 10;
				frac += (*end - '0') * scale;
			}
			end++;
		}
	}
	*ns = whole * unit + frac;
	return end;
}

static int time_parse_rel(struct sonde_time_arg *t, const char *s)
{
	static const struct {
		const char *suffix;
		int64_t unit;
	} units[] = { { "", 1000000000 },
		      { "s", 1000000000 },
		      { "ms", 1000000 },
		      { "us", 1000 },
		      { "ns", 1 } };
	int64_t v;

	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		const char *end = time_parse_decimal(s, &v, units[i].unit);

		if (end && !strcmp(end, units[i].suffix)) {
			t->kind = SONDE_TIME_REL;
			t->ns = v;
			return 0;
		}
	}
	return -EINVAL;
}

/* "HH:MM:SS[.frac]" -> ns since midnight; returns the end or NULL. */
static const char *time_parse_tod(const char *s, int64_t *ns)
{
	unsigned int h, m;
	int n = 0;
	int64_t sec;

	if (sscanf(s, "%2u:%2u:%n", &h, &m, &n) != 2 || !n || h > 23 || m > 59)
		return NULL;
	s = time_parse_decimal(s + n, &sec, 1000000000);
	if (!s || sec >= 60 * 1000000000LL)
		return NULL;
	*ns = (int64_t)(h * 3600 + m * 60) * 1000000000 + sec;
	return s;
}

int sonde_time_arg_parse(struct sonde_time_arg *t, const char *s, char *err, size_t errlen)
{
	int64_t tod;
	const char *end;
	unsigned int y, mo, d;
	int n = 0;

	if (*s == '@') {
		end = time_parse_decimal(s + 1, &t->ns, 1);
		if (end && !*end) {
			t->kind = SONDE_TIME_MONO;
			return 0;
		}
	} else if (strchr(s, ':')) {
		if (sscanf(s, "%4u-%2u-%2u%n", &y, &mo, &d, &n) == 3 &&
		    (s[n] == 'T' || s[n] == ' ')) {
			struct tm tm = {
				.tm_year = y - 1900, .tm_mon = mo - 1, .tm_mday = d, .tm_isdst = -1
			};
			time_t day;

			end = time_parse_tod(s + n + 1, &tod);
			day = mktime(&tm);
			if (end && !*end && day != (time_t)-1 && mo >= 1 && mo <= 12 && d >= 1 &&
			    d <= 31) {
				t->kind = SONDE_TIME_WALL;
				t->ns = (int64_t)day * 1000000000 + tod;
				return 0;
			}
		} else {
			end = time_parse_tod(s, &tod);
			if (end && !*end) {
				t->kind = SONDE_TIME_TOD;
				t->ns = tod;
				return 0;
			}
		}
	} else if (!time_parse_rel(t, s)) {
		return 0;
	}
	snprintf(err, errlen,
		 "bad time '%s': use seconds after the first event (1.5, "
		 "250ms, 40us), @MONOTONIC_NS, HH:MM:SS[.us] or "
		 "YYYY-MM-DDTHH:MM:SS[.us]",
		 s);
	return -EINVAL;
}

/* a + b - c on 64-bit values from a hostile file: saturates instead of
 * overflowing (the result is then meaningless but harmless). */
static int64_t time_shift(int64_t a, int64_t b, int64_t c)
{
	int64_t d, r;

	if (__builtin_sub_overflow(b, c, &d))
		return b > c ? INT64_MAX : INT64_MIN;
	if (__builtin_add_overflow(a, d, &r))
		return d > 0 ? INT64_MAX : INT64_MIN;
	return r;
}

int64_t sonde_ts_to_wall(const struct sonde_meta *meta, uint64_t ts)
{
	if (!meta || !meta->wall_ref_ns)
		return 0;
	return time_shift((int64_t)meta->wall_ref_ns, ts > INT64_MAX ? INT64_MAX : (int64_t)ts,
			  (int64_t)meta->mono_ref_ns);
}

/* Wall-clock ns -> trace ts, saturating at the ends of the range. */
static uint64_t time_wall_to_ts(const struct sonde_meta *meta, int64_t wall)
{
	int64_t ts = time_shift((int64_t)meta->mono_ref_ns, wall, (int64_t)meta->wall_ref_ns);

	return ts < 0 ? 0 : (uint64_t)ts;
}

uint64_t sonde_time_arg_resolve(const struct sonde_time_arg *t, const struct sonde_meta *meta,
				uint64_t first_ts)
{
	int64_t first_wall, midnight;
	struct tm tm;
	time_t sec;

	switch (t->kind) {
	case SONDE_TIME_REL:
		return first_ts > UINT64_MAX - (uint64_t)t->ns ? UINT64_MAX
							       : first_ts + (uint64_t)t->ns;
	case SONDE_TIME_MONO:
		return (uint64_t)t->ns;
	case SONDE_TIME_WALL:
		return time_wall_to_ts(meta, t->ns);
	case SONDE_TIME_TOD:
		/* On the local day of the first event; a time of day more
		 * than 12 hours before the first event means the next day
		 * (a trace spanning midnight). */
		first_wall = sonde_ts_to_wall(meta, first_ts);
		sec = first_wall / 1000000000;
		localtime_r(&sec, &tm);
		tm.tm_hour = tm.tm_min = tm.tm_sec = 0;
		tm.tm_isdst = -1;
		midnight = (int64_t)mktime(&tm) * 1000000000;
		if (midnight + t->ns < first_wall - 1000000000LL * 3600 * 12)
			midnight += 1000000000LL * 86400;
		return time_wall_to_ts(meta, midnight + t->ns);
	}
	return first_ts;
}
