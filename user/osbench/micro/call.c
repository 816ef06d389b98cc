// SPDX-License-Identifier: GPL-2.0
/*
 * osbench call: procedure call overhead for 0 to 7 integer arguments.
 *
 * The callees are noipa: GCC may neither inline them, clone them for
 * constant arguments, nor use what it knows of their bodies at the call
 * site, so every iteration is a real call and return with the arguments
 * in registers (x86-64 passes the first six in registers and the seventh
 * on the stack).  clang has no noipa: there they are noinline and not
 * static (so their calling convention and arguments stay as written),
 * and an empty asm hides each result (so no call is folded or dropped).
 * The first argument is the previous call's result, so the calls form a
 * dependency chain and the figure is the latency of call, body and
 * return, not how many independent calls the core overlaps.
 *
 * Each loop iteration makes CALLS_PER_ITER calls and one empty loop
 * iteration is subtracted per CALLS_PER_ITER.  A core may run a loop's
 * increment and branch beside a short call (an Intel Xeon under KVM does
 * for up to three arguments): with one call per iteration, nothing
 * measurable would be left once the iteration is subtracted.  Eight
 * calls in a row take at least eight times what the core needs to issue
 * a call and its return, far above one iteration.
 */
#include "micro.h"
#include "timing.h"
#include "util.h"

#if defined(__has_attribute) && __has_attribute(noipa)
#define CALLEE static __attribute__((noipa))
#define OPAQUE(x) ((void)0)
#else
#define CALLEE __attribute__((noinline))
#define OPAQUE(x) __asm__ volatile("" : "+r"(x))
#endif

/* The callee's result, hidden from the caller where noipa is missing. */
static inline long opaque(long x)
{
	OPAQUE(x);
	return x;
}

CALLEE long callee0(void) { return opaque(1); }
CALLEE long callee1(long a) { return opaque(a); }
CALLEE long callee2(long a, long b) { return opaque(a + b); }
CALLEE long callee3(long a, long b, long c) { return opaque(a + b + c); }
CALLEE long callee4(long a, long b, long c, long d)
{
	return opaque(a + b + c + d);
}
CALLEE long callee5(long a, long b, long c, long d, long e)
{
	return opaque(a + b + c + d + e);
}
CALLEE long callee6(long a, long b, long c, long d, long e, long f)
{
	return opaque(a + b + c + d + e + f);
}
CALLEE long callee7(long a, long b, long c, long d, long e, long f, long g)
{
	return opaque(a + b + c + d + e + f + g);
}

static volatile long sink;

#define CALLS_PER_ITER 8

/*
 * One loop per arity: a switch inside the loop would be measured too.
 * The iteration's calls are written out, CALLS_PER_ITER of them.
 */
#define CALL_LOOP(name, call)						\
	static int name(void *arg, uint64_t n)				\
	{								\
		long acc = 0, i = 0;					\
									\
		(void)arg;						\
		for (; n; n--, i++) {					\
			acc = call;					\
			acc = call;					\
			acc = call;					\
			acc = call;					\
			acc = call;					\
			acc = call;					\
			acc = call;					\
			acc = call;					\
		}							\
		sink = acc;						\
		return 0;						\
	}

CALL_LOOP(loop0, acc + callee0())
CALL_LOOP(loop1, callee1(acc))
CALL_LOOP(loop2, callee2(acc, i))
CALL_LOOP(loop3, callee3(acc, i, i))
CALL_LOOP(loop4, callee4(acc, i, i, i))
CALL_LOOP(loop5, callee5(acc, i, i, i, i))
CALL_LOOP(loop6, callee6(acc, i, i, i, i, i))
CALL_LOOP(loop7, callee7(acc, i, i, i, i, i, i))

static const measure_fn loops[] = {
	loop0, loop1, loop2, loop3, loop4, loop5, loop6, loop7,
};

static const char usage[] =
	"usage: osbench call [options]\n\n"
	"Cost of calling a function that the compiler cannot inline, with 0\n"
	"to 7 integer arguments, in ns and TSC cycles: eight chained calls\n"
	"per loop iteration, one empty loop iteration subtracted per eight;\n"
	"extra_vs_0 is the difference to 0 arguments.\n";

static int call_run(const struct ctx *c, const void *opts)
{
	struct measure m;
	struct measure_result res;
	struct report *r;
	double base = 0;
	unsigned i;

	(void)opts;
	benchopt_measure(&c->o, &m);
	m.overhead_ns = measure_loop_overhead(&m);
	m.ops_per_iter = CALLS_PER_ITER;

	r = mb_report_new(c, "call", &m);
	report_note(r, "subtracted", "empty loop iteration, %.3g ns, per %d "
		    "calls", m.overhead_ns, CALLS_PER_ITER);
	report_note(r, "abi", "x86-64 SysV: arguments 1-6 in registers, "
		    "the 7th on the stack");
	report_column(r, "args", NULL);
	measure_columns(r);
	report_column(r, "unit", NULL);
	report_column(r, "cycles", NULL);
	report_column(r, "extra_vs_0", NULL);
	measure_column_why(r);
	for (i = 0; i < sizeof(loops) / sizeof(loops[0]); i++) {
		if (measure_run(&m, loops[i], NULL, &res)) {
			report_free(r);
			return EXIT_FAIL;
		}
		report_num(r, i);
		measure_cells(r, &res.st, res.trusted);
		report_str(r, "ns");
		if (!res.trusted) {
			report_none(r);
			report_none(r);
		} else {
			report_num(r, res.st.median * tsc_ghz());
			if (i == 0)
				base = res.st.median;
			report_num(r, res.st.median - base);
			ctx_figure_st(c, FIG_CALL0 + i, &res.st, "ns");
		}
		measure_why(r, res.why);
		measure_free(&res);
	}
	return report_end(r) ? EXIT_FAIL : EXIT_OK;
}

OSBENCH_COMMAND(call, "call", CMD_TABLE | CMD_ALL,
		"procedure call overhead, 0-7 arguments");
