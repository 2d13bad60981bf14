// test_act: vit__epi_apply, the activation of one GEMM-epilogue column pair,
// against PyTorch's own definitions evaluated in float64 from float32 inputs.
//
// usage: test_act DIR   (DIR = tests/data/act, written by
//                        tools/make_act_reference.py; its docstring names the
//                        timm / Hugging Face / CLIP source of each formula)
//
// DIR/<name>.bin: "VACT", uint32 version 1, uint32 arity (1: x, 2: (gate, up)),
// uint32 n, float32 in[n * arity], float64 ref[n], all little-endian.
//
// A finite ref passes when |got - ref| <= 1e-6 + 1e-5 |ref| (float32 math on a
// float32 input: a few ulp relative, plus an absolute floor for the tails where
// 1 + erf / 1 + tanh cancel). Where torch gives +-inf the result must be that
// inf, and where it gives NaN (NaN inputs) a NaN. GELU, tanh GELU and QuickGELU
// see each input in both slots of a pair, v = {x[i], x[i+1]}, and must return
// 2; SwiGLU gets v = {gate, up} and must return 1. VIT__ACT_NONE must return 2
// and leave v bit for bit unchanged. Only fast = 0 (the CPU path) is tested,
// and the CPU forward pass's vector GELU, tanh GELU, QuickGELU and SwiGLU to
// the same tolerance.
#define VIT_IMPLEMENTATION
#include "../vit.h"
#include "test_util.h"
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ATOL 1e-6
#define RTOL 1e-5

// ---------------------------------------------------------------------------
// comparison

typedef struct {
    double max_abs, max_rel; // max |got - ref| over |ref| <= 1; max |got - ref| / |ref| over |ref| >= 0.1
    double worst;            // max |got - ref| / (ATOL + RTOL |ref|): <= 1 passes
    float worst_in[2];       // the input of the worst case
    long bad;                // failures
    long lane_diff;          // results of vit__*_lane(s) whose bits differ from the vectors' (GNU vectors; NaNs alike)
    char first_bad[256];     // the first failure
} act_stats;

// Compares one result with its reference, counts a failure, keeps the maxima.
static void compare(act_stats *s, double got, double ref, const float *in, int arity, int returned, int want_returned) {
    int ok;
    if (isnan(ref)) ok = isnan(got);
    else if (isinf(ref)) ok = got == ref;
    else {
        double d = fabs(got - ref), ratio = d / (ATOL + RTOL * fabs(ref));
        ok = isfinite(got) && ratio <= 1;
        if (fabs(ref) <= 1 && d > s->max_abs) s->max_abs = d;
        if (fabs(ref) >= 0.1 && d / fabs(ref) > s->max_rel) s->max_rel = d / fabs(ref);
        if (ratio > s->worst) {
            s->worst = ratio;
            s->worst_in[0] = in[0];
            s->worst_in[1] = arity == 2 ? in[1] : 0;
        }
    }
    ok = ok && returned == want_returned;
    if (!ok && s->bad++ == 0) {
        if (arity == 2)
            fmt(s->first_bad, sizeof(s->first_bad), "gate %.9g up %.9g: got %.9g ref %.17g (returned %d)", (double)in[0],
                (double)in[1], got, ref, returned);
        else
            fmt(s->first_bad, sizeof(s->first_bad), "x %.9g: got %.9g ref %.17g (returned %d)", (double)in[0], got, ref,
                returned);
    }
}

// The same bits, or both NaN (a NaN's sign may differ)
static inline int same_bits(float a, float b) { return memcmp(&a, &b, 4) == 0 || (a != a && b != b); }

static void report(const char *name, const act_ref *r, const act_stats *s) {
    char where[96], bad[320] = "";
    if (r->arity == 2) fmt(where, sizeof(where), "gate %.9g up %.9g", (double)s->worst_in[0], (double)s->worst_in[1]);
    else fmt(where, sizeof(where), "x %.9g", (double)s->worst_in[0]);
    if (s->bad) fmt(bad, sizeof(bad), "; %ld failed, first: %s", s->bad, s->first_bad);
    else if (s->lane_diff) fmt(bad, sizeof(bad), "; %ld lane results differ from the vectors' bits", s->lane_diff);
    check(s->bad == 0 && s->lane_diff == 0, name, "%zu inputs, max abs err %.2e (|ref| <= 1), max rel err %.2e (|ref| >= 0.1), worst err/tol %.3f at %s%s",
          r->n, s->max_abs, s->max_rel, s->worst, where, bad);
}

// ---------------------------------------------------------------------------
// tests

// An elementwise activation: v = {x[i], x[i+1 mod n]}, so each input is seen in both slots.
static void test_unary(const char *dir, const char *name, vit__act act) {
    act_ref r = {0, 0, NULL, NULL};
    char err[1200];
    if (!read_act(dir, name, 1, &r, err, sizeof(err))) {
        check(0, name, "%s", err);
    } else {
        act_stats s;
        memset(&s, 0, sizeof(s));
        for (size_t i = 0; i < r.n; i++) {
            size_t j = (i + 1) % r.n;
            float v[2] = {r.in[i], r.in[j]};
            int k = vit__epi_apply(act, 0, v);
            compare(&s, v[0], r.ref[i], &r.in[i], 1, k, 2);
            compare(&s, v[1], r.ref[j], &r.in[j], 1, k, 2);
        }
        report(name, &r, &s);
    }
    free(r.in);
    free(r.ref);
}

// SwiGLU: vit__epi_apply on (gate, up), or (vec) as the CPU forward pass runs
// it, silu(gate) up by vit__x_sigmoid_vec 16 pairs at a time.
static void test_swiglu(const char *dir, int vec) {
    act_ref r = {0, 0, NULL, NULL};
    char err[1200];
    const char *name = vec ? "swiglu (vector, the CPU forward's)" : "swiglu";
    if (!read_act(dir, "swiglu", 2, &r, err, sizeof(err))) {
        check(0, name, "%s", err);
    } else {
        act_stats s;
        memset(&s, 0, sizeof(s));
        for (size_t i = 0; i < r.n; i += 16) {
            float got[16];
            int ret[16];
            for (int e = 0; e < 16; e++) {
                float v[2] = {r.in[2 * ((i + e) % r.n)], r.in[2 * ((i + e) % r.n) + 1]};
                ret[e] = vec ? 1 : vit__epi_apply(VIT__ACT_SWIGLU, 0, v); // must return 1
                got[e] = v[0];
            }
            if (vec) // the lanes' arithmetic (compilers without GNU vectors)
                for (int e = 0; e < 16; e++) got[e] = vit__x_sigmoid_lane(r.in[2 * ((i + e) % r.n)], r.in[2 * ((i + e) % r.n)]) * r.in[2 * ((i + e) % r.n) + 1];
#if defined(VIT__VEC_GELU)
            if (vec) {
                float lanes[16];
                memcpy(lanes, got, sizeof(lanes));
                vit__vec16 gate, up;
                for (int e = 0; e < 16; e++) { gate[e] = r.in[2 * ((i + e) % r.n)]; up[e] = r.in[2 * ((i + e) % r.n) + 1]; }
                vit__vec16 v = gate;
                vit__x_sigmoid_vec(&v, &gate);
                v *= up;
                memcpy(got, &v, sizeof(got));
                for (int e = 0; e < 16; e++) s.lane_diff += !same_bits(got[e], lanes[e]);
            }
#endif
            for (int e = 0; e < 16 && i + e < r.n; e++) compare(&s, got[e], r.ref[i + e], &r.in[2 * (i + e)], 2, ret[e], 1);
        }
        report(name, &r, &s);
    }
    free(r.in);
    free(r.ref);
}

// VIT__ACT_NONE: returns 2 and changes no bit of v (the gelu inputs: grid, +-0, subnormals, inf, NaN).
static void test_none(const char *dir) {
    act_ref r = {0, 0, NULL, NULL};
    char err[1200];
    if (!read_act(dir, "gelu", 1, &r, err, sizeof(err))) {
        check(0, "none", "%s", err);
    } else {
        long bad = 0;
        for (size_t i = 0; i < r.n; i++) {
            float v[2] = {r.in[i], r.in[(i + 1) % r.n]}, w[2];
            memcpy(w, v, sizeof(w));
            int k = vit__epi_apply(VIT__ACT_NONE, 0, v);
            bad += k != 2 || memcmp(v, w, sizeof(v)) != 0;
        }
        check(bad == 0, "none", "%zu pairs, %ld did not return 2 with v unchanged", r.n, bad);
    }
    free(r.in);
    free(r.ref);
}

// The CPU forward pass's vector activations (vit__gelu_vec, vit__gelu_tanh_vec,
// vit__quick_gelu_vec), 16 inputs at a time, against the same references; the
// lanes (vit__act_lanes, what compilers without GNU vectors run) must give the
// vectors' bits, and are tested on their own where there are none.
static void test_vec(const char *dir, const char *name, vit__act act) {
    act_ref r = {0, 0, NULL, NULL};
    char err[1200], label[64];
    fmt(label, sizeof(label), "%s (vector, the CPU forward's)", name);
    if (!read_act(dir, name, 1, &r, err, sizeof(err))) {
        check(0, label, "%s", err);
    } else {
        act_stats s;
        memset(&s, 0, sizeof(s));
        for (size_t i = 0; i < r.n; i += 16) {
            float x[16], y[16];
            for (int e = 0; e < 16; e++) x[e] = r.in[(i + e) % r.n];
            memcpy(y, x, sizeof(y));
            vit__act_lanes(y, act);
#if defined(VIT__VEC_GELU)
            float lanes[16];
            memcpy(lanes, y, sizeof(lanes));
            vit__vec16 v;
            memcpy(&v, x, sizeof(v));
            if (act == VIT__ACT_GELU) vit__gelu_vec(&v);
            else if (act == VIT__ACT_GELU_TANH) vit__gelu_tanh_vec(&v);
            else vit__quick_gelu_vec(&v);
            memcpy(y, &v, sizeof(y));
            for (int e = 0; e < 16; e++) s.lane_diff += !same_bits(y[e], lanes[e]);
#endif
            for (int e = 0; e < 16 && i + e < r.n; e++) compare(&s, y[e], r.ref[i + e], &r.in[i + e], 1, 2, 2);
        }
        report(label, &r, &s);
    }
    free(r.in);
    free(r.ref);
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s DIR   (DIR = tests/data/act)\n", argv[0]);
        return 2;
    }
    test_none(argv[1]);
    test_unary(argv[1], "gelu", VIT__ACT_GELU);
    test_unary(argv[1], "gelu_tanh", VIT__ACT_GELU_TANH);
    test_unary(argv[1], "quick_gelu", VIT__ACT_QUICK_GELU);
    test_swiglu(argv[1], 0);
    test_vec(argv[1], "gelu", VIT__ACT_GELU);
    test_vec(argv[1], "gelu_tanh", VIT__ACT_GELU_TANH);
    test_vec(argv[1], "quick_gelu", VIT__ACT_QUICK_GELU);
    test_swiglu(argv[1], 1);
    return check_summary();
}
