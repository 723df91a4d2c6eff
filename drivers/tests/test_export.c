// SPDX-License-Identifier: MIT
/*
 * test_export.c - libjointer's converters (jointer_export.h) on hand-made
 * trace files: the exact CSV, VCD and Perfetto text of a small trace across
 * a 32-bit wrap, the errors of bad files (with their byte offsets and
 * messages), an incomplete file cut inside a record, a malformed compact
 * unit, and jointer_export_fopen refusing a directory, a FIFO, a device.
 * Run natively, under ASan + UBSan and under qemu (c-test, sanitize-test).
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "jointer_export.h"
#include "jt_test.h"

int jt_failed;

static jointer_export_src SRC, SRC2;
static char OUT[8192];

static const jointer_trace_record REC[] = {{0xFFFFFFFEu, 5}, {0xFFFFFFFFu, 6}, {3u, 0xFFFFFFFFu}};

/* a trace file in a tmpfile: header (clock hz, COMPLETE or not), records, extra bytes */
static FILE *make(uint32_t hz, int complete, const jointer_trace_record *rec, uint32_t n, const char *extra,
                  size_t nextra)
{
    jointer_tfile_header h;
    FILE *f = tmpfile();
    memset(&h, 0, sizeof h);
    h.version = JOINTER_TFILE_VERSION;
    h.clock_hz = hz;
    h.depth = 8;
    strcpy(h.monitor, "mon");
    strcpy(h.trace, "tr");
    if (f == NULL || jointer_tfile_write_header(f, &h) != 0 || jointer_tfile_append(f, &h, rec, n) != 0
        || (complete && jointer_tfile_finish(f, &h, 1) != 0) || fwrite(extra, 1, nextra, f) != nextra
        || fflush(f) != 0) {
        fprintf(stderr, "test_export: cannot write a trace file\n");
        exit(1);
    }
    rewind(f);
    return f;
}

/* what fn wrote to a tmpfile, NUL terminated in OUT */
static const char *text(FILE *o)
{
    size_t n;
    rewind(o);
    n = fread(OUT, 1, sizeof OUT - 1u, o);
    OUT[n] = 0;
    fclose(o);
    return OUT;
}

/* f cut to size, as a new FILE (no stale stdio buffer) */
static FILE *cut(FILE *f, long size)
{
    FILE *g;
    if (ftruncate(fileno(f), size) != 0 || (g = fdopen(dup(fileno(f)), "r+b")) == NULL) {
        fprintf(stderr, "test_export: cannot cut a trace file\n");
        exit(1);
    }
    fclose(f);
    return g;
}

static const char *message(int r)
{
    static char m[256];
    jointer_export_message(&SRC, r, m, sizeof m);
    return m;
}

TEST(csv_and_json)
{
    FILE *f = make(100000000u, 1, REC, 3, NULL, 0), *o = tmpfile();
    CHECK_OK(jointer_export_open(&SRC, f, "x"));
    CHECK_OK(jointer_export_csv(o, &SRC));
    CHECK(strcmp(text(o), "# monitor mon, trace tr, config hash 0x00000000, clock 100000000 Hz, 3 records, 1 lost\n"
                          "index,timestamp,data\n0,4294967294,5\n1,4294967295,6\n2,3,4294967295\n") == 0);
    rewind(f);
    o = tmpfile();
    CHECK_OK(jointer_export_open(&SRC, f, "x"));
    CHECK_OK(jointer_export_json(o, &SRC));
    CHECK(strcmp(text(o), "{\"monitor\": \"mon\", \"trace\": \"tr\", \"config_hash\": 0, \"clock_hz\": 100000000, "
                          "\"depth\": 8, \"complete\": true, \"lost\": 1, \"records\": [{\"timestamp\": 4294967294, "
                          "\"data\": 5}, {\"timestamp\": 4294967295, \"data\": 6}, {\"timestamp\": 3, "
                          "\"data\": 4294967295}]}\n") == 0);
    fclose(f);
}

/* cycles 2^32-2, 2^32-1 (the strobe stays high), 2^32+3: 10000 ps a cycle */
TEST(vcd_across_a_wrap)
{
    FILE *f = make(100000000u, 1, REC, 3, NULL, 0), *o = tmpfile();
    jointer_export_src *list[1] = {&SRC};
    CHECK_OK(jointer_export_open(&SRC, f, "x"));
    CHECK_OK(jointer_export_vcd(o, list, 1, "t"));
    CHECK(strcmp(text(o),
                 "$date jointer trace export $end\n$version jointer t $end\n"
                 "$comment time = LMIC clock cycle x period; mon.tr: 100000000 Hz, 10000 ps $end\n"
                 "$timescale 1ps $end\n$scope module mon $end\n$scope module tr $end\n$var wire 32 ! data $end\n"
                 "$var wire 1 \" strobe $end\n$upscope $end\n$upscope $end\n$enddefinitions $end\n#0\n$dumpvars\n"
                 "bx !\n0\"\n$end\n"
                 "#42949672940000\nb00000000000000000000000000000101 !\n1\"\n"
                 "#42949672950000\nb00000000000000000000000000000110 !\n1\"\n"
                 "#42949672960000\n0\"\n"
                 "#42949672990000\nb11111111111111111111111111111111 !\n1\"\n"
                 "#42949673000000\n0\"\n") == 0);
    fclose(f);
}

/* two files merged in time order; names with VCD keywords become identifiers */
TEST(vcd_merges_and_escapes)
{
    static const jointer_trace_record a[] = {{1, 1}, {5, 2}}, b[] = {{2, 3}};
    FILE *fa = make(0, 1, a, 2, NULL, 0), *fb = make(0, 1, b, 1, NULL, 0), *o = tmpfile();
    jointer_export_src *list[2] = {&SRC, &SRC2};
    const char *t;
    CHECK_OK(jointer_export_open(&SRC, fa, "a"));
    CHECK_OK(jointer_export_open(&SRC2, fb, "b"));
    strcpy(SRC2.name, "x $end y");
    CHECK_OK(jointer_export_vcd(o, list, 2, "t"));
    t = text(o);
    CHECK(strstr(t, "$scope module tr $end\n$var wire 32 ! data $end") != NULL);
    CHECK(strstr(t, "$scope module x__end_y $end\n$var wire 32 # data $end") != NULL);
    CHECK(strstr(t, "$end\n#1000\nb00000000000000000000000000000001 !\n1\"\n#2000\n0\"\n"
                    "b00000000000000000000000000000011 #\n1$\n#3000\n0$\n#5000\n") != NULL);
    fclose(fa);
    fclose(fb);
}

/* main (indices 0/1) as a slice of 2^32 + 300 cycles at 100 MHz, the rule of jointer_cycles.h */
TEST(perfetto_slices_and_counters)
{
    static const jointer_trace_record r[] = {{100u, 0}, {0x80000000u, 7}, {400u, 1}, {500u, 1}};
    static const jointer_pm_function fn[1] = {{0, 1}};
    static const char *const names[1] = {"ma\"in"}, *const src[1] = {"f.jtr"};
    static jointer_export_frame stack[4];
    jointer_export_calls calls = {fn, names, 1, stack, 4};
    jointer_perfetto p;
    FILE *f = make(100000000u, 1, r, 4, NULL, 0), *o = tmpfile();
    const char *t;
    CHECK_OK(jointer_export_open(&SRC, f, "x"));
    CHECK_OK(jointer_perfetto_begin(&p, o));
    CHECK_OK(jointer_perfetto_process(&p, 1, "mon"));
    CHECK_OK(jointer_perfetto_records(&p, &SRC, 1, 1, &calls));
    CHECK_OK(jointer_perfetto_counter(&p, 2, "c\x01", 1500.25, -3));
    CHECK_EQ(jointer_perfetto_counter(&p, 2, "c", -1.0, 0), -EINVAL);
    CHECK_OK(jointer_perfetto_end(&p, "g", src, 1));
    t = text(o);
    CHECK(strstr(t, "{\"name\": \"tr\", \"cat\": \"record\", \"ph\": \"i\", \"s\": \"t\", \"ts\": 1, \"pid\": 1, "
                    "\"tid\": 1, \"args\": {\"data\": 0, \"cycle\": 100}}") != NULL);
    CHECK(strstr(t, "{\"name\": \"ma\\\"in\", \"cat\": \"pm\", \"ph\": \"X\", \"ts\": 1, \"dur\": 42949675.96, "
                    "\"pid\": 1, \"tid\": 1, \"args\": {\"cycles\": 4294967596}}") != NULL);
    CHECK(strstr(t, "{\"name\": \"unmatched exit ma\\\"in\", \"cat\": \"pm\", \"ph\": \"i\", \"s\": \"t\", "
                    "\"ts\": 42949677.96, \"pid\": 1, \"tid\": 1}") != NULL);
    CHECK(strstr(t, "{\"name\": \"c\\u0001\", \"cat\": \"watch\", \"ph\": \"C\", \"ts\": 1500.25, \"pid\": 2, "
                    "\"tid\": 0, \"args\": {\"value\": -3}}") != NULL);
    CHECK(strstr(t, "\n], \"displayTimeUnit\": \"ns\", \"otherData\": {\"generator\": \"g\", \"sources\": "
                    "[\"f.jtr\"]}}\n") != NULL);
    fclose(f);
}

TEST(bad_files_say_where)
{
    static const char zeros[5] = {0};
    FILE *f = make(0, 1, REC, 3, zeros, 5);
    CHECK_EQ(jointer_export_open(&SRC, f, NULL), -EPROTO);
    CHECK(strcmp(message(-EPROTO), "5 bytes after the 3 records the header counts (corrupted), from byte offset 128")
          == 0);
    fclose(f);
    f = cut(make(0, 1, REC, 3, NULL, 0), 104 + 8 * 2 + 3); /* cut inside the last record */
    CHECK_EQ(jointer_export_open(&SRC, f, NULL), -EPROTO);
    CHECK(strcmp(message(-EPROTO), "the header says 3 records, the file holds 2 (truncated at byte offset 120)") == 0);
    f = cut(f, 60);
    CHECK_EQ(jointer_export_open(&SRC, f, NULL), -EIO);
    CHECK(strcmp(message(-EIO), "truncated header: 60 bytes (a trace file starts with 104 header bytes)") == 0);
    f = cut(f, 0);
    CHECK_EQ(jointer_export_open(&SRC, f, NULL), -EPROTO);
    CHECK(strcmp(message(-EPROTO), "empty file, not a jointer trace file") == 0);
    fclose(f);
    f = make(0, 1, REC, 3, NULL, 0);
    CHECK_EQ(fseek(f, 8, SEEK_SET), 0);
    CHECK_EQ(fputc(3, f), 3);
    CHECK_EQ(jointer_export_open(&SRC, f, NULL), -EPROTO);
    CHECK(strcmp(message(-EPROTO), "not a jointer trace file of a known version: byte offset 8: version 3 "
                                   "(this reader: 1)") == 0);
    CHECK_EQ(fseek(f, 0, SEEK_SET), 0);
    CHECK_EQ(fputc('X', f), 'X');
    CHECK_EQ(jointer_export_open(&SRC, f, NULL), -EPROTO);
    CHECK(strstr(message(-EPROTO), "byte offset 0: no magic") != NULL);
    fclose(f);
}

/* no COMPLETE: the whole records convert, the partial one is counted in tail_bytes */
TEST(incomplete_file_cut_inside_a_record)
{
    FILE *f = make(0, 0, REC, 3, "\x01\x02\x03", 3), *o = tmpfile();
    CHECK_OK(jointer_export_open(&SRC, f, NULL));
    CHECK_OK(jointer_export_csv(o, &SRC));
    CHECK(strstr(text(o), "3 records, 0 lost (incomplete file)\nindex,timestamp,data\n0,4294967294,5\n"
                          "1,4294967295,6\n2,3,4294967295\n") != NULL);
    CHECK(jointer_export_count(&SRC, JOINTER_EXPORT_TAIL) == 3u);
    CHECK(jointer_export_count(&SRC, JOINTER_EXPORT_RECORDS) == 3u);
    fclose(f);
}

TEST(malformed_compact_unit)
{
    jointer_tfile_header h;
    uint64_t units[2] = {0, (uint64_t)3 << 62 | (uint64_t)1 << 60};
    FILE *f = tmpfile(), *o = tmpfile();
    jointer_export_src *list[1] = {&SRC};
    memset(&h, 0, sizeof h);
    h.version = JOINTER_TFILE_VERSION;
    h.encoding = JOINTER_TFILE_ENC_COMPACT;
    CHECK_OK(jointer_tfile_write_header(f, &h));
    CHECK_OK(jointer_tfile_append_units(f, &h, units, 2));
    CHECK_OK(jointer_tfile_finish(f, &h, 0));
    rewind(f);
    CHECK_OK(jointer_export_open(&SRC, f, NULL));
    CHECK_EQ(jointer_export_vcd(o, list, 1, "t"), -EILSEQ);
    CHECK(strcmp(message(-EILSEQ), "unit 1: malformed compact unit at byte offset 112") == 0);
    CHECK(jointer_export_count(&SRC, JOINTER_EXPORT_WHY) == JOINTER_EXPORT_MALFORMED);
    fclose(o);
    fclose(f);
}

TEST(fopen_refuses_what_is_not_a_regular_file)
{
    char dir[] = "/tmp/jt_exportXXXXXX", fifo[64];
    FILE *f = NULL;
    CHECK(mkdtemp(dir) != NULL);
    CHECK_EQ(jointer_export_fopen(dir, &f), -EISDIR);
    snprintf(fifo, sizeof fifo, "%s/fifo", dir);
    CHECK_OK(mkfifo(fifo, 0600));
    CHECK_EQ(jointer_export_fopen(fifo, &f), -ESPIPE); /* no writer: no hang */
    CHECK_EQ(jointer_export_fopen("/dev/null", &f), -ENODEV);
    CHECK_EQ(jointer_export_fopen("/nonexistent/x", &f), -ENOENT);
    CHECK(f == NULL);
    CHECK(strcmp(jointer_export_open_error(-ESPIPE),
                 "a FIFO or socket, not a regular file (a trace file is read with seeks)") == 0);
    CHECK_OK(unlink(fifo));
    CHECK_OK(rmdir(dir));
}

static const jt_case cases[] = {
    {"csv_and_json", csv_and_json},
    {"vcd_across_a_wrap", vcd_across_a_wrap},
    {"vcd_merges_and_escapes", vcd_merges_and_escapes},
    {"perfetto_slices_and_counters", perfetto_slices_and_counters},
    {"bad_files_say_where", bad_files_say_where},
    {"incomplete_file_cut_inside_a_record", incomplete_file_cut_inside_a_record},
    {"malformed_compact_unit", malformed_compact_unit},
    {"fopen_refuses_what_is_not_a_regular_file", fopen_refuses_what_is_not_a_regular_file},
};

int main(int argc, char **argv)
{
    return jt_run("test_export", cases, sizeof cases / sizeof cases[0], argc, argv);
}
