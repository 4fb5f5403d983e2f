// SPDX-License-Identifier: GPL-2.0
/*
 * strace's -e inject=SET[:KEY=VALUE...] and -e fault=SET[:error=E][:when=W]
 * (include/sonde/inject.h). The keys and their ranges are strace 6.1's:
 * error= a name or 1..4095, retval= a number, signal= a name (any case,
 * with or without SIG) or 1..64,
 * syscall= a pure call run in place of the original (here: none runs, the
 * result is the same), delay_enter= and delay_exit= a time, poke_enter=
 * and poke_exit= "@argN=HEX,...", when= first[..last][+[step]]. error
 * and retval exclude each other; a later when= replaces an earlier one.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sonde/inject.h>

int sonde_time_parse(const char *s, uint64_t *ns)
{
	static const struct {
		const char *unit;
		double ns;
	} units[] = { { "", 1e3 }, { "s", 1e9 }, { "ms", 1e6 }, { "us", 1e3 }, { "ns", 1 } };
	char *end;
	double v = strtod(s, &end);

	if (end == s || !isfinite(v) || v < 0)
		return -EINVAL;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		double t = v * units[i].ns;

		if (strcmp(end, units[i].unit))
			continue;
		/* Below 2^63 ns (292 years): a duration fits. */
		if (t >= 9.2e18)
			return -EINVAL;
		*ns = (uint64_t)llround(t);
		return 0;
	}
	return -EINVAL;
}

/* A decimal number in lo..hi, the whole of s[0..len). */
static int num_in(const char *s, size_t len, uint32_t lo, uint32_t hi, uint32_t *out)
{
	uint64_t v = 0;

	if (!len || len > 10)
		return -EINVAL;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -EINVAL;
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	if (v < lo || v > hi)
		return -EINVAL;
	*out = (uint32_t)v;
	return 0;
}

/* first[..last][+[step]]: first and last 1..65535, step 1..65534. */
static int parse_when(struct sonde_inject_when *w, const char *v)
{
	const char *dots = strstr(v, ".."), *plus = strchr(v, '+');
	const char *fend = dots ? dots : plus ? plus : v + strlen(v);
	struct sonde_inject_when n = { .last = 0, .step = 1 };

	if (plus && dots && plus < dots)
		return -EINVAL;
	if (num_in(v, (size_t)(fend - v), 1, 65535, &n.first))
		return -EINVAL;
	if (dots) {
		const char *lend = plus ? plus : dots + strlen(dots);

		if (num_in(dots + 2, (size_t)(lend - dots - 2), n.first, 65535, &n.last))
			return -EINVAL;
	}
	if (plus) {
		/* strace 6.1 takes first+, first+step and first..last+step */
		if (plus[1] ? num_in(plus + 1, strlen(plus + 1), 1, 65534, &n.step) : !!dots)
			return -EINVAL;
		if (!dots)
			n.last = UINT32_MAX;
	} else if (!dots) {
		n.last = n.first; /* that invocation only */
	}
	*w = n;
	return 0;
}

bool sonde_inject_when_hits(const struct sonde_inject_when *w, uint64_t n)
{
	return n >= w->first && n <= w->last && (n - w->first) % w->step == 0;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* @argN=HEX[,@argM=HEX...] (N 1..6, an even count of hex digits, at most
 * 4096 bytes a poke). */
static int parse_pokes(struct sonde_inject_rule *r, const char *v, bool exit)
{
	char *dup = strdup(v), *tok, *save = NULL;
	int rc = 0;

	if (!dup)
		return -ENOMEM;
	for (tok = strtok_r(dup, ",", &save); tok && !rc; tok = strtok_r(NULL, ",", &save)) {
		struct sonde_inject_poke p = { .exit = exit };
		const char *hex = tok + 6;
		size_t nhex = strlen(tok) > 6 ? strlen(hex) : 0;
		void *grown;

		if (strncmp(tok, "@arg", 4) || tok[4] < '1' || tok[4] > '6' || tok[5] != '=' ||
		    !nhex || nhex % 2 || nhex / 2 > 4096) {
			rc = -EINVAL;
			break;
		}
		p.arg = (uint8_t)(tok[4] - '1');
		p.len = (uint16_t)(nhex / 2);
		p.data = malloc(p.len);
		grown = realloc(r->pokes, (r->npokes + 1) * sizeof(*r->pokes));
		if (!p.data || !grown) {
			free(p.data);
			if (grown)
				r->pokes = grown;
			rc = -ENOMEM;
			break;
		}
		r->pokes = grown;
		for (size_t i = 0; i < p.len && !rc; i++) {
			int hi = hexval(hex[2 * i]), lo = hexval(hex[2 * i + 1]);

			if (hi < 0 || lo < 0)
				rc = -EINVAL;
			else
				p.data[i] = (uint8_t)(hi << 4 | lo);
		}
		if (rc)
			free(p.data);
		else
			r->pokes[r->npokes++] = p;
	}
	free(dup);
	return rc;
}

static int parse_error(struct sonde_inject_rule *r, const char *v)
{
	uint32_t n;

	if (!num_in(v, strlen(v), 1, 4095, &n))
		r->error = (int)n;
	else
		r->error = sonde_errno_lookup(v);
	return r->error > 0 && r->error <= 4095 ? 0 : -EINVAL;
}

static int parse_retval(struct sonde_inject_rule *r, const char *v)
{
	char *end;
	unsigned long long n;

	/* A negative value is taken as strace takes it, modulo 2^64 (-1 then
	 * reads as an error, EPERM, to the program). */
	errno = 0;
	n = *v == '-' ? (unsigned long long)strtoll(v, &end, 0) : strtoull(v, &end, 0);
	if (!*v || *end || errno)
		return -EINVAL;
	r->retval = n;
	r->has_retval = true;
	return 0;
}

static int parse_signal(struct sonde_inject_rule *r, const char *v)
{
	uint32_t n;

	r->signal = num_in(v, strlen(v), 1, 64, &n) ? sonde_signal_lookup(v) : (int)n;
	return r->signal > 0 ? 0 : -EINVAL;
}

/* syscall=NAME: strace runs a call without side effects (%pure) instead of
 * the original; under seccomp none runs, which returns the same. */
static int parse_syscall(const char *v)
{
	struct sonde_sc_set pure, one;
	char e[160];
	int nr = -1;

	memset(&pure, 0, sizeof(pure));
	memset(&one, 0, sizeof(one));
	if (sonde_sc_set_parse(&pure, "%pure", e, sizeof(e)) ||
	    sonde_sc_set_parse(&one, v, e, sizeof(e)) || sonde_sc_set_count(&one) != 1)
		return -EINVAL;
	for (unsigned int i = 0; i < SONDE_NR_SYSCALLS; i++)
		if (sonde_sc_set_has(&one, i, 0))
			nr = (int)i;
	return nr >= 0 && sonde_sc_set_has(&pure, (unsigned int)nr, 0) ? 0 : -EINVAL;
}

/* One KEY=VALUE of the spec. */
static int parse_key(struct sonde_inject_rule *r, const char *kv, bool fault, int *got)
{
	const char *v = strchr(kv, '=');
	size_t k = v ? (size_t)(v - kv) : 0;

	if (!v)
		return -EINVAL;
	v++;
#define KEY(name) (k == sizeof(name) - 1 && !strncmp(kv, name, k))
	if (KEY("when"))
		return parse_when(&r->when, v);
	if (KEY("error"))
		return *got |= 1, parse_error(r, v);
	if (fault)
		return -EINVAL;
	if (KEY("retval"))
		return *got |= 2, parse_retval(r, v);
	if (KEY("signal"))
		return *got |= 4, parse_signal(r, v);
	if (KEY("syscall"))
		return parse_syscall(v);
	if (KEY("delay_enter"))
		return *got |= 8, sonde_time_parse(v, &r->delay_enter_ns);
	if (KEY("delay_exit"))
		return *got |= 8, sonde_time_parse(v, &r->delay_exit_ns);
	if (KEY("poke_enter"))
		return *got |= 16, parse_pokes(r, v, false);
	if (KEY("poke_exit"))
		return *got |= 16, parse_pokes(r, v, true);
#undef KEY
	return -EINVAL;
}

static void rule_free(struct sonde_inject_rule *r)
{
	for (size_t i = 0; i < r->npokes; i++)
		free(r->pokes[i].data);
	free(r->pokes);
}

/* The set and the keys of spec into r; got: which kinds of keys came. */
static int parse_rule(struct sonde_inject_rule *r, const char *spec, bool fault, char *err,
		      size_t errlen)
{
	char *dup = strdup(spec), *colon, *kv, *next;
	int got = 0, rc;

	if (!dup)
		return -ENOMEM;
	colon = strchr(dup, ':');
	if (colon)
		*colon = 0;
	rc = sonde_sc_set_parse(&r->set, dup, err, errlen);
	for (kv = colon ? colon + 1 : NULL; kv && !rc; kv = next) {
		next = strchr(kv, ':');
		if (next)
			*next++ = 0;
		/* error and retval exclude each other, once each, as signal */
		if ((!strncmp(kv, "error=", 6) && (got & 3)) ||
		    (!strncmp(kv, "retval=", 7) && (got & 3)) ||
		    (!strncmp(kv, "signal=", 7) && (got & 4)))
			rc = -EINVAL;
		else
			rc = parse_key(r, kv, fault, &got);
		if (rc == -EINVAL)
			snprintf(err, errlen, "invalid %s argument '%s' (at '%s')",
				 fault ? "fault" : "inject", spec, kv);
	}
	if (!rc && fault && !r->error)
		r->error = ENOSYS;
	for (size_t i = 0; !rc && !r->error && !r->has_retval && i < r->npokes; i++)
		if (r->pokes[i].exit) {
			/* The supervisor answers before the call runs. */
			snprintf(
				err, errlen,
				"invalid inject argument '%s': sonde writes poke_exit= only into a "
				"call it answers itself (with error= or retval=)",
				spec);
			rc = -EINVAL;
		}
	if (!rc && !got && !fault) {
		snprintf(err, errlen,
			 "invalid inject argument '%s': it needs error=, retval=, signal=, "
			 "delay_enter=, delay_exit=, poke_enter= or poke_exit=",
			 spec);
		rc = -EINVAL;
	}
	free(dup);
	return rc;
}

int sonde_inject_parse(struct sonde_inject *inj, const char *spec, bool fault, char *err,
		       size_t errlen)
{
	struct sonde_inject_rule r = { .when = { .first = 1, .last = UINT32_MAX, .step = 1 } };
	void *grown;
	int rc;

	rc = parse_rule(&r, spec, fault, err, errlen);
	if (rc) {
		rule_free(&r);
		return rc;
	}
	grown = realloc(inj->rules, (inj->n + 1) * sizeof(*inj->rules));
	if (!grown) {
		rule_free(&r);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	inj->rules = grown;
	inj->rules[inj->n++] = r;
	return 0;
}

void sonde_inject_free(struct sonde_inject *inj)
{
	for (size_t i = 0; i < inj->n; i++)
		rule_free(&inj->rules[i]);
	free(inj->rules);
	inj->rules = NULL;
	inj->n = 0;
}

const struct sonde_inject_rule *sonde_inject_rule_for(const struct sonde_inject *inj,
						      unsigned int nr)
{
	for (size_t i = inj ? inj->n : 0; i-- > 0;)
		if (sonde_sc_set_has(&inj->rules[i].set, nr, 0))
			return &inj->rules[i];
	return NULL;
}

void sonde_inject_restrict(struct sonde_inject *inj, const struct sonde_sc_set *traced)
{
	for (size_t i = 0; i < inj->n; i++)
		sonde_sc_set_and(&inj->rules[i].set, traced);
}
