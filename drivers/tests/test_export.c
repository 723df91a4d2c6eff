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

/* a version 1 trace file in a tmpfile (as written before the timeline block):
 * header (clock hz, COMPLETE or not), records, extra bytes */
static FILE *make(uint32_t hz, int complete, const jointer_trace_record *rec, uint32_t n, const char *extra,
                  size_t nextra)
{
    jointer_tfile_header h;
    FILE *f = tmpfile();
    memset(&h, 0, sizeof h);
    h.version = 1;
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
                          "# time_s: seconds since cycle 0 (the first edge of clock 100000000 Hz after its LMIC's "
                          "reset)\nindex,timestamp,data,cycle,time_s\n0,4294967294,5,4294967294,42.94967294\n"
                          "1,4294967295,6,4294967295,42.94967295\n2,3,4294967295,4294967299,42.94967299\n") == 0);
    rewind(f);
    o = tmpfile();
    CHECK_OK(jointer_export_open(&SRC, f, "x"));
    CHECK_OK(jointer_export_json(o, &SRC));
    CHECK(strcmp(text(o), "{\"monitor\": \"mon\", \"trace\": \"tr\", \"config_hash\": 0, \"clock_hz\": 100000000, "
                          "\"depth\": 8, \"complete\": true, \"lost\": 1, \"clock\": \"\", \"time\": {\"base\": "
                          "\"cycle 0\"}, \"lanes\": [], \"spans\": [], \"records\": [{\"timestamp\": 4294967294, "
                          "\"data\": 5, \"cycle\": 4294967294, \"time_s\": 42.94967294}, {\"timestamp\": 4294967295, "
                          "\"data\": 6, \"cycle\": 4294967295, \"time_s\": 42.94967295}, {\"timestamp\": 3, "
                          "\"data\": 4294967295, \"cycle\": 4294967299, \"time_s\": 42.94967299}]}\n") == 0);
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
                                   "(this reader: 1 and 2)") == 0);
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
    CHECK(strstr(text(o), "3 records, 0 lost (incomplete file)\n") != NULL);
    CHECK(strstr(OUT, "index,timestamp,data,cycle,time_s\n0,4294967294,5,4294967294,4.294967294\n"
                      "1,4294967295,6,4294967295,4.294967295\n2,3,4294967295,4294967299,4.294967299\n") != NULL);
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
    h.version = 1;
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

/* ---- version 2: lanes, spans, the host's sync, the clock ----------------------------- */

/* a trace of 3 lanes (start, done, step) with sync at 200 MHz: data = value << 4 | sync << 3 | lanes;
 * the host's sync slot 5 s + [0, 100] ns, so cycle 1000 (the sync record) is 5.00000005 s */
static const jointer_trace_record TL[] = {
    {1000, 0x8}, {1010, 7u << 4 | 1u}, {1020, 7u << 4 | 4u}, {1030, 8u << 4 | 1u}, {1040, 7u << 4 | 2u},
    {1050, 9u << 4 | 2u}};

static FILE *make_timeline(int sync)
{
    static const jointer_span_desc sp[1] = {{"tile", 0, 1, JOINTER_SPAN_BY_ID}};
    static const char *const lanes[3] = {"start", "done", "step"};
    jointer_trace_desc t;
    jointer_cfg cfg;
    jointer_tfile_header h;
    FILE *f = tmpfile();
    memset(&t, 0, sizeof t);
    memset(&cfg, 0, sizeof cfg);
    t.name = "tl";
    t.clock_hz = 200000000u;
    t.clock = "acc";
    t.num_lanes = 3;
    t.sync = 1;
    t.lane_names = lanes;
    t.num_spans = 1;
    t.spans = sp;
    cfg.name = "mon";
    cfg.traces = &t;
    cfg.num_traces = 1;
    if (f == NULL || jointer_tfile_header_init(&h, &cfg, 0) != 0
        || (sync && jointer_tfile_add_sync(&h, 5000000000ull, 5000000100ull) != 0)
        || jointer_tfile_write_header(f, &h) != 0 || jointer_tfile_append(f, &h, TL, 6) != 0
        || jointer_tfile_finish(f, &h, 0) != 0) {
        fprintf(stderr, "test_export: cannot write a version 2 trace file\n");
        exit(1);
    }
    rewind(f);
    return f;
}

TEST(lanes_csv_json_and_the_host_clock)
{
    FILE *f = make_timeline(1), *o = tmpfile();
    CHECK_OK(jointer_export_open(&SRC, f, NULL));
    CHECK(jointer_export_count(&SRC, JOINTER_EXPORT_SYNCED) == 1u);
    CHECK(jointer_export_count(&SRC, JOINTER_EXPORT_SYNC_CYCLE) == 1000u);
    CHECK(jointer_export_count(&SRC, JOINTER_EXPORT_SYNC_NS) == 5000000050ull);
    CHECK(jointer_export_count(&SRC, JOINTER_EXPORT_SYNC_ERR_NS) == 50u);
    CHECK_OK(jointer_export_csv(o, &SRC));
    CHECK(strcmp(text(o), "# monitor mon, trace tl, config hash 0x00000000, clock 200000000 Hz, 6 records, 0 lost\n"
                          "# time_s: seconds on the host's clock (CLOCK_MONOTONIC): the sync record at cycle 1000 "
                          "is 5000000050 ns (+-50 ns); clock acc 200000000 Hz\n"
                          "index,timestamp,data,cycle,time_s,lane,value\n0,1000,8,1000,5.00000005,sync,0\n"
                          "1,1010,113,1010,5.0000001,start,7\n2,1020,116,1020,5.00000015,step,7\n"
                          "3,1030,129,1030,5.0000002,start,8\n4,1040,114,1040,5.00000025,done,7\n"
                          "5,1050,146,1050,5.0000003,done,9\n") == 0);
    rewind(f);
    o = tmpfile();
    CHECK_OK(jointer_export_open(&SRC, f, NULL));
    CHECK_OK(jointer_export_json(o, &SRC));
    CHECK(strstr(text(o), "\"clock\": \"acc\", \"time\": {\"base\": \"CLOCK_MONOTONIC\", \"sync_cycle\": 1000, "
                          "\"sync_ns\": 5000000050, \"sync_err_ns\": 50}, \"lanes\": [\"start\", \"done\", \"step\"], "
                          "\"spans\": [\"tile\"], \"records\": [{\"timestamp\": 1000, \"data\": 8, \"cycle\": 1000, "
                          "\"time_s\": 5.00000005, \"lanes\": [], \"value\": 0, \"sync\": true}, {\"timestamp\": 1010, "
                          "\"data\": 113, \"cycle\": 1010, \"time_s\": 5.0000001, \"lanes\": [\"start\"], "
                          "\"value\": 7}") != NULL);
    fclose(f);
    f = make_timeline(0); /* no sync slot filled: seconds since cycle 0, at the clock given */
    o = tmpfile();
    CHECK_OK(jointer_export_open(&SRC, f, NULL));
    CHECK(jointer_export_count(&SRC, JOINTER_EXPORT_SYNCED) == 0u);
    CHECK_EQ(jointer_export_set_clock(&SRC, 0), -EINVAL);
    CHECK_OK(jointer_export_set_clock(&SRC, 400000000u));
    CHECK_OK(jointer_export_csv(o, &SRC));
    CHECK(strstr(text(o), "1,1010,113,1010,0.000002525,start,7\n") != NULL);
    fclose(f);
}

/* tile 7: 1010..1040 ok; done 9 without a begin: from the first record; tile 8 open at the end */
TEST(spans_csv_and_unmatched_edges)
{
    FILE *f = make_timeline(1), *o = tmpfile();
    CHECK_OK(jointer_export_open(&SRC, f, NULL));
    CHECK_OK(jointer_export_spans_csv(o, &SRC));
    CHECK(strstr(text(o), "span,id,track,begin_cycle,end_cycle,begin_s,end_s,duration_s,status\n"
                          "tile,7,trace,1010,1040,5.0000001,5.00000025,0.00000015,ok\n"
                          "tile,9,trace,1000,1050,5.00000005,5.0000003,0.00000025,no begin\n"
                          "tile,8,trace,1030,1050,5.0000002,5.0000003,0.0000001,no end\n") != NULL);
    fclose(f);
    f = make(0, 1, REC, 3, NULL, 0); /* no spans */
    o = tmpfile();
    CHECK_OK(jointer_export_open(&SRC, f, NULL));
    CHECK_EQ(jointer_export_spans_csv(o, &SRC), -ENOENT);
    fclose(o);
    fclose(f);
}

/* start/done as one lane (data 1, 0): a level span; 1 then 1 is done-then-start */
TEST(level_spans)
{
    static const jointer_trace_record r[] = {{10, 1}, {20, 0}, {30, 1}, {40, 1}, {50, 0}, {60, 0}};
    static const jointer_span_desc sp[1] = {{"task", JOINTER_SPAN_LEVEL, JOINTER_SPAN_LEVEL, 0}};
    jointer_trace_desc t;
    jointer_cfg cfg;
    jointer_tfile_header h;
    FILE *f = tmpfile(), *o = tmpfile();
    memset(&t, 0, sizeof t);
    memset(&cfg, 0, sizeof cfg);
    t.name = "task_log";
    t.clock_hz = 100000000u;
    t.num_spans = 1;
    t.spans = sp;
    cfg.traces = &t;
    cfg.num_traces = 1;
    CHECK_OK(jointer_tfile_header_init(&h, &cfg, 0));
    CHECK_OK(jointer_tfile_write_header(f, &h));
    CHECK_OK(jointer_tfile_append(f, &h, r, 6));
    CHECK_OK(jointer_tfile_finish(f, &h, 0));
    rewind(f);
    CHECK_OK(jointer_export_open(&SRC, f, NULL));
    CHECK_OK(jointer_export_spans_csv(o, &SRC));
    CHECK(strstr(text(o), "task,1,trace,10,20,0.0000001,0.0000002,0.0000001,ok\n"
                          "task,1,trace,30,40,0.0000003,0.0000004,0.0000001,ok\n"
                          "task,1,trace,40,50,0.0000004,0.0000005,0.0000001,ok\n"
                          "task,0,trace,10,60,0.0000001,0.0000006,0.0000005,no begin\n") != NULL);
    fclose(f);
}

TEST(perfetto_lanes_and_spans)
{
    static const char *const src[1] = {"t.jtr"};
    jointer_perfetto p;
    FILE *f = make_timeline(1), *o = tmpfile();
    const char *t;
    CHECK_OK(jointer_export_open(&SRC, f, NULL));
    CHECK_OK(jointer_perfetto_begin(&p, o));
    CHECK_OK(jointer_perfetto_records(&p, &SRC, 1, 1, NULL));
    CHECK_OK(jointer_perfetto_end(&p, "g", src, 1));
    t = text(o);
    CHECK(strstr(t, "{\"name\": \"sync\", \"cat\": \"record\", \"ph\": \"i\", \"s\": \"t\", \"ts\": 5000000.05, "
                    "\"pid\": 1, \"tid\": 1, \"args\": {\"value\": 0, \"cycle\": 1000}}") != NULL);
    CHECK(strstr(t, "{\"name\": \"start\", \"cat\": \"record\", \"ph\": \"i\", \"s\": \"t\", \"ts\": 5000000.1, "
                    "\"pid\": 1, \"tid\": 1, \"args\": {\"value\": 7, \"cycle\": 1010}}") != NULL);
    CHECK(strstr(t, "{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": 1, \"tid\": 126976, \"args\": {\"name\": "
                    "\"tl: tile\"}}") != NULL);
    CHECK(strstr(t, "{\"name\": \"tile\", \"cat\": \"span\", \"ph\": \"X\", \"ts\": 5000000.1, \"dur\": 0.15, "
                    "\"pid\": 1, \"tid\": 126976, \"args\": {\"id\": 7, \"begin_cycle\": 1010, \"end_cycle\": "
                    "1040}}") != NULL);
    CHECK(strstr(t, "{\"name\": \"tile (no begin)\", \"cat\": \"span\", \"ph\": \"X\", \"ts\": 5000000.05, "
                    "\"dur\": 0.25, \"pid\": 1, \"tid\": 126976, \"args\": {\"id\": 9, \"begin_cycle\": 1000, "
                    "\"end_cycle\": 1050, \"unmatched\": \"no begin in the trace: open before its first "
                    "record\"}}") != NULL);
    CHECK(strstr(t, "{\"name\": \"tile (no end)\", \"cat\": \"span\", \"ph\": \"X\", \"ts\": 5000000.2, "
                    "\"dur\": 0.1, ") != NULL);
    fclose(f);
}

TEST(vcd_lanes_on_the_host_clock)
{
    FILE *f = make_timeline(1), *o = tmpfile();
    jointer_export_src *list[1] = {&SRC};
    const char *t;
    CHECK_OK(jointer_export_open(&SRC, f, NULL));
    CHECK_OK(jointer_export_vcd(o, list, 1, "t"));
    t = text(o);
    CHECK(strstr(t, "$scope module tl $end\n$var wire 28 ! value $end\n$var wire 1 \" start $end\n"
                    "$var wire 1 # done $end\n$var wire 1 $ step $end\n$var wire 1 % sync $end\n") != NULL);
    CHECK(strstr(t, "#5000000050000\nb00000000000000000000000000000000 !\n1%\n#5000000055000\n0%\n"
                    "#5000000100000\nb00000000000000000000000000000111 !\n1\"\n#5000000105000\n0\"\n") != NULL);
    fclose(f);
}

/* the timeline block: written and read back; a malformed one is refused at offset 104 */
TEST(timeline_block_round_trip_and_errors)
{
    jointer_tfile_header h;
    FILE *f = make_timeline(1);
    CHECK_OK(jointer_tfile_read_header(f, &h));
    CHECK(h.version == 2u && h.num_lanes == 3u && h.sync == 1u && h.num_spans == 1u && h.num_syncs == 1u);
    CHECK(strcmp(h.clock, "acc") == 0 && strcmp(h.lane_names[2], "step") == 0 && strcmp(h.spans[0].name, "tile") == 0);
    CHECK(h.syncs[0].before_ns == 5000000000ull && h.syncs[0].after_ns == 5000000100ull);
    CHECK(h.data_offset == 104u + 44u + 3u * 24u + 28u + 64u);
    CHECK_EQ(jointer_tfile_add_sync(&h, 2, 1), -EINVAL);
    CHECK_OK(jointer_tfile_add_sync(&h, 1, 2));
    CHECK_OK(jointer_tfile_add_sync(&h, 1, 2));
    CHECK_OK(jointer_tfile_add_sync(&h, 1, 2));
    CHECK_EQ(jointer_tfile_add_sync(&h, 1, 2), -ENOSPC);
    CHECK_EQ(fseek(f, 104 + 4, SEEK_SET), 0);
    CHECK_EQ(fputc(17, f), 17); /* 17 lanes */
    CHECK_EQ(jointer_export_open(&SRC, f, NULL), -EPROTO);
    CHECK(strstr(message(-EPROTO), "byte offset 104: a malformed timeline block") != NULL);
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
    {"lanes_csv_json_and_the_host_clock", lanes_csv_json_and_the_host_clock},
    {"spans_csv_and_unmatched_edges", spans_csv_and_unmatched_edges},
    {"level_spans", level_spans},
    {"perfetto_lanes_and_spans", perfetto_lanes_and_spans},
    {"vcd_lanes_on_the_host_clock", vcd_lanes_on_the_host_clock},
    {"timeline_block_round_trip_and_errors", timeline_block_round_trip_and_errors},
    {"fopen_refuses_what_is_not_a_regular_file", fopen_refuses_what_is_not_a_regular_file},
};

int main(int argc, char **argv)
{
    return jt_run("test_export", cases, sizeof cases / sizeof cases[0], argc, argv);
}
