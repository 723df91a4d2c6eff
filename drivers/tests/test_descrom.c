// SPDX-License-Identifier: MIT
/*
 * test_descrom.c - jointer_descrom_read against the mock's descriptor ROM.
 *
 * usage: test_descrom ROM_MON.jdesc - the descriptor file jointer-gen wrote
 * for drivers/tests/fixtures/rom_mon.yaml (descriptor: rom). The mock serves
 * its bytes through DESC_INDEX/DESC_DATA; the reader must return them
 * exactly (length from the header, the last partial word cut), with the
 * exact number of register accesses, parse into the compiled-in rom_mon_cfg,
 * and return every error: no ROM (-ENOTSUP, no ROM access), a buffer too
 * small (-ENOSPC after the head only), a ROM without the magic (-EILSEQ), a
 * length no ROM can hold (-EINVAL), a failing access at any point (its error).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jointer_descfile.h"
#include "jt_test.h"
#include "mock/jointer_mock.h"

int jt_failed;

extern const jointer_cfg rom_mon_cfg;

static unsigned char file[1u << 14];
static size_t file_len;
static unsigned char rom[1u << 14];
static unsigned char buf[1u << 14];
static unsigned char arena[1u << 14];
static mock_hw hw;
static jointer_dev dev;

#define SENTINEL 0xA5u

static void put32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)v;
    p[1] = (unsigned char)(v >> 8);
    p[2] = (unsigned char)(v >> 16);
    p[3] = (unsigned char)(v >> 24);
}

/* the mock over rom_mon_cfg with a ROM of the first len bytes of rom[] */
static int setup(size_t len)
{
    jointer_io io;
    int r;
    mock_init(&hw, &rom_mon_cfg);
    mock_rom(&hw, rom, (uint32_t)len);
    io = mock_io_polled(&hw);
    memset(buf, SENTINEL, sizeof buf);
    r = jointer_init(&dev, &rom_mon_cfg, &io);
    hw.reads = hw.writes = 0;   /* count the reader's accesses only */
    return r;
}

static void with_file(void)
{
    memcpy(rom, file, file_len);
}

static size_t words(size_t len)
{
    return (len + 3u) / 4u;
}

/* ---- cases ------------------------------------------------------------------ */

TEST(reads_the_file_exactly)
{
    size_t len = 1;
    with_file();
    CHECK_OK(setup(file_len));
    CHECK_EQ(hw.info & JOINTER_INFO_DESC_ROM, JOINTER_INFO_DESC_ROM);
    CHECK_OK(jointer_descrom_read(&dev, buf, sizeof buf, &len));
    CHECK_EQ(len, file_len);
    CHECK(memcmp(buf, file, file_len) == 0);
    CHECK_EQ(buf[file_len], SENTINEL);               /* the padding of the last word is not copied */
    /* INFO..ID (4 reads), then one DESC_INDEX write and one DESC_DATA read per word */
    CHECK_EQ(hw.writes, words(file_len));
    CHECK_EQ(hw.reads, 4u + words(file_len));
    CHECK_EQ(hw.desc_index, words(file_len) - 1u);
}

TEST(parses_into_the_compiled_in_descriptor)
{
    jointer_cfg c;
    size_t len = 0;
    unsigned i;
    with_file();
    CHECK_OK(setup(file_len));
    CHECK_OK(jointer_descrom_read(&dev, buf, sizeof buf, &len));
    CHECK_OK(jointer_descfile_parse(buf, len, arena, sizeof arena, &c));
    CHECK(strcmp(c.name, rom_mon_cfg.name) == 0);
    CHECK_EQ(c.config_hash, rom_mon_cfg.config_hash);
    CHECK_EQ(c.info, rom_mon_cfg.info);
    CHECK_EQ(c.info & JOINTER_INFO_DESC_ROM, JOINTER_INFO_DESC_ROM);
    CHECK_EQ(c.span, rom_mon_cfg.span);
    CHECK_EQ(c.num_lmics, rom_mon_cfg.num_lmics);
    CHECK_EQ(c.num_metrics, rom_mon_cfg.num_metrics);
    CHECK_EQ(c.num_traces, rom_mon_cfg.num_traces);
    CHECK_EQ(c.num_metrics, 1);
    CHECK_EQ(c.num_traces, 1);
    for (i = 0; i < c.num_metrics; i++) {
        CHECK(strcmp(c.metrics[i].name, rom_mon_cfg.metrics[i].name) == 0);
        CHECK_EQ(c.metrics[i].result_offset, rom_mon_cfg.metrics[i].result_offset);
        CHECK_EQ(c.metrics[i].width, rom_mon_cfg.metrics[i].width);
    }
    for (i = 0; i < c.num_traces; i++) {
        CHECK(strcmp(c.traces[i].name, rom_mon_cfg.traces[i].name) == 0);
        CHECK_EQ(c.traces[i].ram_offset, rom_mon_cfg.traces[i].ram_offset);
        CHECK_EQ(c.traces[i].depth, rom_mon_cfg.traces[i].depth);
    }
}

TEST(buffer_of_the_exact_size_and_one_byte_less)
{
    size_t len = 7;
    with_file();
    CHECK_OK(setup(file_len));
    CHECK_OK(jointer_descrom_read(&dev, buf, file_len, &len));
    CHECK_EQ(len, file_len);
    CHECK_OK(setup(file_len));
    CHECK_EQ(jointer_descrom_read(&dev, buf, file_len - 1u, &len), -ENOSPC);
    CHECK_EQ(len, 0);
    CHECK_EQ(hw.writes, 4);                          /* the head only */
    CHECK_EQ(buf[0], SENTINEL);                      /* nothing written */
}

TEST(no_rom)
{
    size_t len = 7;
    with_file();
    CHECK_OK(setup(file_len));
    hw.info &= ~JOINTER_INFO_DESC_ROM;
    CHECK_EQ(jointer_descrom_read(&dev, buf, sizeof buf, &len), -ENOTSUP);
    CHECK_EQ(len, 0);
    CHECK_EQ(hw.writes, 0);
    CHECK_EQ(hw.reads, 4);
}

TEST(not_a_descriptor)
{
    size_t len = 7;
    with_file();
    rom[3] = 'X';                                    /* "JDSX" */
    CHECK_OK(setup(file_len));
    CHECK_EQ(jointer_descrom_read(&dev, buf, sizeof buf, &len), -EILSEQ);
    CHECK_EQ(len, 0);
    memset(rom, 0, 64);                              /* an empty ROM reads 0 */
    CHECK_OK(setup(64));
    CHECK_EQ(jointer_descrom_read(&dev, buf, sizeof buf, &len), -EILSEQ);
}

TEST(impossible_lengths)
{
    static const uint32_t bad[] = {0, 15, 4u * 65535u + 1u, 0xFFFFFFFFu};
    size_t len = 7;
    unsigned i;
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        with_file();
        put32(rom + 8, bad[i]);
        CHECK_OK(setup(file_len));
        CHECK_EQ(jointer_descrom_read(&dev, buf, sizeof buf, &len), -EINVAL);
        CHECK_EQ(len, 0);
        CHECK_EQ(hw.writes, 4);
    }
}

TEST(partial_last_word)
{
    /* a 65-byte "file": the reader trusts the header's length, the parser the rest */
    size_t len = 0, i;
    for (i = 0; i < 68u; i++)
        rom[i] = (unsigned char)(0x30u + i);
    memcpy(rom, "JDSC", 4);
    put32(rom + 8, 65);
    CHECK_OK(setup(65));
    CHECK_OK(jointer_descrom_read(&dev, buf, 65, &len));
    CHECK_EQ(len, 65);
    CHECK(memcmp(buf, rom, 65) == 0);
    CHECK_EQ(buf[65], SENTINEL);
    CHECK_EQ(hw.writes, 17);
}

TEST(every_access_error_is_returned)
{
    size_t len = 7;
    int k, total;
    with_file();
    total = 4 + 2 * (int)words(file_len);
    for (k = 0; k < total; k++) {
        CHECK_OK(setup(file_len));
        hw.fail_after = k;
        hw.fail_code = (k & 1) ? -ETIMEDOUT : -EIO;
        CHECK_EQ(jointer_descrom_read(&dev, buf, sizeof buf, &len), hw.fail_code);
        CHECK_EQ(len, 0);
    }
    CHECK_OK(setup(file_len));
    hw.fail_after = total;      /* after the last access: no error */
    CHECK_OK(jointer_descrom_read(&dev, buf, sizeof buf, &len));
}

TEST(bad_arguments)
{
    size_t len = 7;
    jointer_dev none;
    with_file();
    CHECK_OK(setup(file_len));
    memset(&none, 0, sizeof none);
    CHECK_EQ(jointer_descrom_read(NULL, buf, sizeof buf, &len), -EINVAL);
    CHECK_EQ(jointer_descrom_read(&none, buf, sizeof buf, &len), -EINVAL);
    CHECK_EQ(jointer_descrom_read(&dev, NULL, sizeof buf, &len), -EINVAL);
    CHECK_EQ(jointer_descrom_read(&dev, buf, sizeof buf, NULL), -EINVAL);
    CHECK_EQ(hw.reads + hw.writes, 0);
}

static const jt_case cases[] = {
    JT_CASE(reads_the_file_exactly), JT_CASE(parses_into_the_compiled_in_descriptor),
    JT_CASE(buffer_of_the_exact_size_and_one_byte_less), JT_CASE(no_rom), JT_CASE(not_a_descriptor),
    JT_CASE(impossible_lengths), JT_CASE(partial_last_word), JT_CASE(every_access_error_is_returned),
    JT_CASE(bad_arguments),
};

int main(int argc, char **argv)
{
    FILE *f;
    if (argc < 2 || (f = fopen(argv[1], "rb")) == NULL) {
        printf("usage: test_descrom ROM_MON.jdesc\n");
        return 1;
    }
    file_len = fread(file, 1, sizeof file, f);
    fclose(f);
    if (file_len < 64u || file_len >= sizeof file) {
        printf("test_descrom: %s: not a descriptor file of the fixture\n", argv[1]);
        return 1;
    }
    return jt_run("test_descrom", cases, sizeof cases / sizeof cases[0], argc - 1, argv + 1);
}
