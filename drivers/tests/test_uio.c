// SPDX-License-Identifier: MIT
/*
 * test_uio.c - the UIO and /dev/mem ports against a fake sysfs tree and a
 * regular file standing in for the device (no kernel module). Interrupts: a
 * pty stands in for the UIO file descriptor's read/write/poll side, and a
 * helper thread plays the kernel: it reads the arming write and writes the
 * 32-bit interrupt count.
 */
#define _XOPEN_SOURCE 700
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "jointer.h"
#include "jointer_hosted.h"
#include "jt_test.h"

#include "accel_mon.h"
#include "relay_mon.h"

int jt_failed;

static char root[256], sysfs[300], devpath[300];
static accel_mon_dev Y;

static int put(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (f == NULL)
        return -1;
    fputs(text, f);
    return fclose(f);
}

static void poke(uint32_t off, uint32_t v)
{
    int fd = open(devpath, O_RDWR);
    if (fd >= 0) {
        if (pwrite(fd, &v, 4, off) != 4)
            abort();
        close(fd);
    }
}

static uint32_t peek(uint32_t off)
{
    uint32_t v = 0xDEADBEEF;
    int fd = open(devpath, O_RDONLY);
    if (fd >= 0) {
        if (pread(fd, &v, 4, off) != 4)
            abort();
        close(fd);
    }
    return v;
}

/* a fake /sys/class/uio/uio3 whose map0 starts `base` bytes into the file */
static int make_tree(const char *size, const char *addr, const char *offset, uint32_t base)
{
    char path[512];
    static int n;
    snprintf(root, sizeof root, "%s/t%d", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", n);
    snprintf(sysfs, sizeof sysfs, "%s/sys", root);
    snprintf(devpath, sizeof devpath, "%s/uio3", root);
    n++;
    snprintf(path, sizeof path, "mkdir -p %s/uio3/maps/map0", sysfs);
    if (system(path) != 0)
        return -1;
    snprintf(path, sizeof path, "%s/uio3/maps/map0/size", sysfs);
    if (size != NULL && put(path, size) != 0)
        return -1;
    snprintf(path, sizeof path, "%s/uio3/maps/map0/addr", sysfs);
    if (addr != NULL && put(path, addr) != 0)
        return -1;
    snprintf(path, sizeof path, "%s/uio3/maps/map0/offset", sysfs);
    if (offset != NULL && put(path, offset) != 0)
        return -1;
    {
        int fd = open(devpath, O_RDWR | O_CREAT | O_TRUNC, 0600);
        if (fd < 0 || ftruncate(fd, 0x4000) != 0)
            return -1;
        close(fd);
    }
    poke(base + JOINTER_REG_ID, JOINTER_ID_VALUE);
    poke(base + JOINTER_REG_VERSION, JOINTER_VERSION_VALUE);
    poke(base + JOINTER_REG_CONFIG_HASH, ACCEL_MON_CONFIG_HASH);
    poke(base + JOINTER_REG_INFO, ACCEL_MON_INFO); /* what the generated Y9 states */
    poke(base + ACCEL_MON_MAC_FIRES_RESULT, 321);
    poke(base + ACCEL_MON_COMPUTE_CYCLES_RESULT, 2);
    poke(base + ACCEL_MON_COMPUTE_CYCLES_RESULT + 4, 1);
    return 0;
}

static int uio_open(const char *irq_path, unsigned flags)
{
    jointer_uio_params p = {sysfs, irq_path, 0, NULL};
    int r = jointer_uio_open(&Y.dev, &accel_mon_cfg, devpath, &p, flags);
    return r != 0 ? r : jointer_attach_bounds(&Y.dev, Y.bounds, 2 * ACCEL_MON_NUM_DCAPFS);
}

TEST(uio_maps_reads_and_writes_the_device)
{
    uint64_t v;
    CHECK_OK(make_tree("0x1000\n", "0x43c00000\n", "0x0\n", 0));
    CHECK_OK(uio_open(NULL, 0));
    CHECK_EQ(Y.dev.port.map_len, 4096);
    CHECK_OK(accel_mon_read_mac_fires(&Y, &v));
    CHECK_EQ(v, 321);
    CHECK_OK(accel_mon_read_compute_cycles(&Y, &v));
    CHECK_EQ(v, 0x100000002ull);
    CHECK_OK(accel_mon_initialize_bytes_written(&Y, 0x10, 0x20));
    CHECK_OK(accel_mon_run_accel(&Y));
    CHECK_EQ(jointer_mark(&Y.dev, 0xABCD), -ENOTSUP); /* Y9 has no MARK register */
    CHECK_OK(accel_mon_selftest(&Y, 0)); /* SCRATCH of a file holds */
    CHECK_OK(accel_mon_close(&Y));
    CHECK_EQ(peek(ACCEL_MON_ACCEL_CONTROL), JOINTER_CONTROL_RUN | (2u << 2)); /* FILTERING carried */
    CHECK_EQ(peek(ACCEL_MON_TRANSACTION_INIT), 0x20);
    CHECK_EQ(peek(JOINTER_REG_MARK), 0); /* nothing written there */
    CHECK_EQ(jointer_read(&Y.dev, 0, &v), -EINVAL);
}

TEST(uio_offset_from_the_low_address_bits)
{
    uint64_t v;
    CHECK_OK(make_tree("0x2000\n", "0x43c00100\n", NULL, 0x100)); /* no offset file */
    CHECK_OK(uio_open(NULL, 0));
    CHECK_OK(accel_mon_read_mac_fires(&Y, &v));
    CHECK_EQ(v, 321);
    CHECK_OK(accel_mon_close(&Y));
    CHECK_OK(make_tree("0x2000\n", "0x43c00000\n", "0x200\n", 0x200)); /* offset file wins */
    CHECK_OK(uio_open(NULL, 0));
    CHECK_OK(accel_mon_read_mac_fires(&Y, &v));
    CHECK_EQ(v, 321);
    CHECK_OK(accel_mon_close(&Y));
}

TEST(uio_errors)
{
    jointer_uio_params p = {NULL, NULL, 0, NULL};
    CHECK_OK(make_tree("0x1000\n", "0x43c00000\n", "0\n", 0));
    p.sysfs_root = sysfs;
    CHECK_EQ(jointer_uio_open(&Y.dev, &accel_mon_cfg, "/dev/mem", &p, 0), -EINVAL);
    CHECK_EQ(jointer_uio_open(&Y.dev, &accel_mon_cfg, "/dev/uio", &p, 0), -EINVAL);
    CHECK_EQ(jointer_uio_open(&Y.dev, &accel_mon_cfg, "/dev/uio1x", &p, 0), -EINVAL);
    CHECK_EQ(jointer_uio_open(&Y.dev, &accel_mon_cfg, "/dev/uio9", &p, 0), -ENOENT); /* no sysfs */
    CHECK_EQ(jointer_uio_open(NULL, &accel_mon_cfg, devpath, &p, 0), -EINVAL);
    CHECK_EQ(jointer_uio_open(&Y.dev, NULL, devpath, &p, 0), -EINVAL);
    CHECK_EQ(jointer_uio_open(&Y.dev, &accel_mon_cfg, NULL, &p, 0), -EINVAL);
    p.irq_path = "/nonexistent/pty";
    CHECK_EQ(jointer_uio_open(&Y.dev, &accel_mon_cfg, devpath, &p, 0), -ENOENT);
    p.irq_path = NULL;
    CHECK_OK(make_tree("0x40\n", "0x43c00000\n", "0\n", 0)); /* smaller than the span */
    CHECK_EQ(jointer_uio_open(&Y.dev, &accel_mon_cfg, devpath, &p, 0), -EINVAL);
    CHECK_OK(make_tree("many\n", "0x43c00000\n", "0\n", 0)); /* garbage */
    CHECK_EQ(jointer_uio_open(&Y.dev, &accel_mon_cfg, devpath, &p, 0), -EIO);
    CHECK_OK(make_tree("0x1000\n", NULL, "0\n", 0)); /* no addr */
    CHECK_EQ(jointer_uio_open(&Y.dev, &accel_mon_cfg, devpath, &p, 0), -ENOENT);
    CHECK_OK(make_tree("0x1000\n", "0x43c00000\n", "0\n", 0));
    unlink(devpath);
    CHECK_EQ(jointer_uio_open(&Y.dev, &accel_mon_cfg, devpath, &p, 0), -ENOENT);
    /* identity */
    CHECK_OK(make_tree("0x1000\n", "0x43c00000\n", "0\n", 0));
    poke(JOINTER_REG_CONFIG_HASH, 0x12345678);
    CHECK_EQ(jointer_uio_open(&Y.dev, &accel_mon_cfg, devpath, &p, 0), -ESTALE);
    CHECK(Y.dev.port.map == NULL); /* nothing left mapped */
    CHECK_OK(jointer_uio_open(&Y.dev, &accel_mon_cfg, devpath, &p, JOINTER_FORCE));
    CHECK_OK(jointer_close(&Y.dev));
    poke(JOINTER_REG_ID, 0);
    CHECK_EQ(jointer_uio_open(&Y.dev, &accel_mon_cfg, devpath, &p, JOINTER_FORCE), -ENODEV);
}

/* ---- interrupts through a pty ------------------------------------------- */

static int master = -1;
static uint32_t armed;

static void *kernel(void *arg)
{
    uint32_t count = 7, v;
    (void)arg;
    if (read(master, &v, 4) == 4) /* the arming write */
        armed = v;
    {
        struct timespec ts = {0, 20000000};
        nanosleep(&ts, NULL);
    }
    if (write(master, &count, 4) != 4)
        abort();
    return NULL;
}

static int open_pty(char *slave_name, size_t n)
{
    struct termios t;
    int s;
    master = posix_openpt(O_RDWR | O_NOCTTY);
    if (master < 0 || grantpt(master) != 0 || unlockpt(master) != 0)
        return -1;
    snprintf(slave_name, n, "%s", ptsname(master));
    s = open(slave_name, O_RDWR | O_NOCTTY);
    if (s < 0 || tcgetattr(s, &t) != 0)
        return -1;
    t.c_iflag &= (tcflag_t) ~(IGNBRK | BRKINT | PARMRK | ISTRIP | INLCR | IGNCR | ICRNL | IXON);
    t.c_oflag &= (tcflag_t) ~OPOST;
    t.c_lflag &= (tcflag_t) ~(ECHO | ECHONL | ICANON | ISIG | IEXTEN);
    t.c_cflag &= (tcflag_t) ~(CSIZE | PARENB);
    t.c_cflag |= CS8;
    t.c_cc[VMIN] = 1;
    t.c_cc[VTIME] = 0;
    if (tcsetattr(s, TCSANOW, &t) != 0)
        return -1;
    return s; /* kept open so the settings stay */
}

TEST(uio_irq_arm_poll_read)
{
    char slave[128];
    pthread_t th;
    uint32_t l = 0, v;
    int s;
    if (getenv("JOINTER_SKIP_PTY") != NULL) {
        printf("  (pty interrupt test skipped: JOINTER_SKIP_PTY)\n");
        return;
    }
    CHECK_OK(make_tree("0x1000\n", "0x43c00000\n", "0\n", 0));
    poke(JOINTER_REG_IRQ_STATUS, 1);
    poke(JOINTER_REG_IRQ_ENABLE, 1);
    s = open_pty(slave, sizeof slave);
    CHECK(s >= 0);
    CHECK_OK(uio_open(slave, 0));
    /* nobody answers: timeout */
    CHECK_EQ(jointer_irq_wait(&Y.dev, 30, &l), -ETIMEDOUT);
    CHECK_EQ(read(master, &v, 4), 4); /* it armed, though */
    CHECK_EQ(v, 1);
    /* the kernel thread answers */
    CHECK_OK(pthread_create(&th, NULL, kernel, NULL));
    CHECK_OK(jointer_irq_wait(&Y.dev, 5000, &l));
    pthread_join(th, NULL);
    CHECK_EQ(armed, 1);
    CHECK_EQ(Y.dev.port.irq_count, 7);
    CHECK_EQ(l, 1); /* global IRQ_STATUS & IRQ_ENABLE */
    CHECK_OK(accel_mon_close(&Y));
    close(s);
    close(master);
}

/* a relay step over UIO: the watermark interrupt through the pty, then the
 * drain. A file does not count down on ACK like the hardware: every drain
 * sees the same FILL = 3 records (slots 6, 7, 0 from RPTR 6), so the step
 * drains them until its budget of 4 x depth = 32 records (11 drains). */
typedef struct uio_sink {
    uint32_t data[64];
    uint32_t n;
} uio_sink;

static int uio_collect(void *ctx, const jointer_trace_record *rec, uint32_t n)
{
    uio_sink *s = ctx;
    for (uint32_t i = 0; i < n && s->n < 64; i++)
        s->data[s->n++] = rec[i].data;
    return 0;
}

TEST(uio_trace_relay_step)
{
    static relay_mon_dev R;
    static uio_sink sink;
    jointer_uio_params p = {sysfs, NULL, 0, NULL};
    jointer_trace_record buf[8];
    const uint32_t reg = RELAY_MON_RELAY_T_REGS, ram = RELAY_MON_RELAY_T_RAM;
    const int irq_bit = relay_mon_cfg.traces[RELAY_MON_TRACE_RELAY_T].irq_bit;
    uint64_t drained = 0;
    uint32_t lost, i;
    char slave[128];
    pthread_t th;
    int s;
    if (getenv("JOINTER_SKIP_PTY") != NULL) {
        printf("  (pty interrupt test skipped: JOINTER_SKIP_PTY)\n");
        return;
    }
    CHECK_OK(make_tree("0x1000\n", "0x43c00000\n", "0\n", 0));
    poke(JOINTER_REG_CONFIG_HASH, RELAY_MON_CONFIG_HASH);
    poke(JOINTER_REG_INFO, RELAY_MON_INFO); /* 1 LMIC, 256-byte windows, TIMESTAMP, SCRATCH */
    poke(JOINTER_REG_IRQ_STATUS, 1);
    poke(JOINTER_REG_IRQ_ENABLE, 1);
    poke(RELAY_MON_PL_IRQ_STATUS, 1u << irq_bit); /* the watermark source */
    poke(reg + JOINTER_TRACE_FILL, 3);
    poke(reg + JOINTER_TRACE_RPTR, 6);
    poke(reg + JOINTER_TRACE_LOST, 2);
    for (i = 0; i < 8; i++) {
        poke(ram + 8 * i, 100 + i);
        poke(ram + 8 * i + 4, 0xD0 + i);
    }
    s = open_pty(slave, sizeof slave);
    CHECK(s >= 0);
    p.irq_path = slave;
    CHECK_OK(jointer_uio_open(&R.dev, &relay_mon_cfg, devpath, &p, 0));
    memset(&sink, 0, sizeof sink);
    CHECK_OK(pthread_create(&th, NULL, kernel, NULL));
    CHECK_OK(jointer_trace_relay(&R.dev, RELAY_MON_TRACE_RELAY_T, buf, 8, 5000, uio_collect, &sink, &drained));
    pthread_join(th, NULL);
    CHECK_EQ(armed, 1);                                   /* armed, then woken by the count */
    CHECK_EQ(R.dev.port.irq_count, 7);
    CHECK_EQ(peek(RELAY_MON_PL_IRQ_STATUS), 3u << irq_bit); /* w1c of watermark | full */
    CHECK_EQ(peek(reg + JOINTER_TRACE_ACK), 3);           /* each drain released its 3 */
    CHECK_EQ(drained, 33);
    CHECK_EQ(sink.n, 33);
    for (i = 0; i < 33; i++)
        CHECK_EQ(sink.data[i], 0xD0u + (6u + i % 3u) % 8u); /* 0xD6, 0xD7, 0xD0: the wrap */
    CHECK_OK(jointer_trace_lost(&R.dev, RELAY_MON_TRACE_RELAY_T, &lost));
    CHECK_EQ(lost, 2);
    CHECK_OK(jointer_close(&R.dev));
    close(s);
    close(master);
}

/* ---- /dev/mem and jointer_open ------------------------------------------- */

TEST(devmem_maps_exactly_the_monitor)
{
    uint64_t v;
    long page = sysconf(_SC_PAGESIZE);
    CHECK_OK(make_tree("0x1000\n", "0\n", "0\n", (uint32_t)page + 0x40));
    CHECK_OK(jointer_devmem_open(&Y.dev, &accel_mon_cfg, (uint64_t)page + 0x40, devpath, 0));
    CHECK_OK(jointer_attach_bounds(&Y.dev, Y.bounds, 8));
    CHECK_EQ(Y.dev.port.map_len, (size_t)page); /* 0x40 + span 0x80 fits one page */
    CHECK_OK(accel_mon_read_mac_fires(&Y, &v));
    CHECK_EQ(v, 321);
    CHECK_OK(accel_mon_run_accel(&Y));
    CHECK_OK(accel_mon_close(&Y));
    CHECK_EQ(peek((uint32_t)page + 0x40 + ACCEL_MON_ACCEL_CONTROL), 1);
    CHECK_EQ(jointer_devmem_open(&Y.dev, &accel_mon_cfg, 2, devpath, 0), -EINVAL);
    CHECK_EQ(jointer_devmem_open(&Y.dev, &accel_mon_cfg, 0, "/nonexistent", 0), -ENOENT);
    CHECK_EQ(jointer_devmem_open(&Y.dev, &accel_mon_cfg, 0x1000, devpath, 0), -ENODEV); /* zeros */
    CHECK_EQ(jointer_devmem_open(NULL, &accel_mon_cfg, 0, devpath, 0), -EINVAL);
}

TEST(open_spec_parsing)
{
    CHECK_EQ(jointer_open(&Y.dev, &accel_mon_cfg, "bogus:1"), -EINVAL);
    CHECK_EQ(jointer_open(&Y.dev, &accel_mon_cfg, "devmem:zz"), -EINVAL);
    CHECK_EQ(jointer_open(&Y.dev, &accel_mon_cfg, "devmem:0x10 "), -EINVAL);
    CHECK_EQ(jointer_open(&Y.dev, &accel_mon_cfg, "devmem:0x2"), -EINVAL); /* unaligned */
    CHECK_EQ(jointer_open(&Y.dev, &accel_mon_cfg, "uio:/dev/uio97"), -ENOENT);
    CHECK_EQ(jointer_open(NULL, &accel_mon_cfg, "uio:/dev/uio0"), -EINVAL);
    CHECK_EQ(jointer_open(&Y.dev, NULL, "uio:/dev/uio0"), -EINVAL);
    CHECK_EQ(jointer_open(&Y.dev, &accel_mon_cfg, NULL), -EINVAL);
    CHECK_EQ(jointer_open_ex(&Y.dev, &accel_mon_cfg, "uio:notuio", JOINTER_FORCE), -EINVAL);
    {
        int r = jointer_open(&Y.dev, &accel_mon_cfg, "devmem"); /* /dev/mem at 0x43C00000 */
        CHECK(r != 0); /* no monitor here (or no /dev/mem) */
    }
}

/* the sink's ring: map1 of the UIO device (the file: its second page on),
 * and the same bytes through the /dev/mem path */
TEST(ring_maps_uio_map1_and_devmem)
{
    long page = sysconf(_SC_PAGESIZE);
    jointer_uio_params p = {sysfs, NULL, 0, NULL};
    jointer_ring_map ring;
    char path[600];
    int fd;

    CHECK_OK(make_tree("0x1000\n", "0x43C00000\n", "0\n", 0));
    CHECK_EQ(jointer_uio_ring_open(&ring, devpath, &p), -ENODEV); /* no map1 yet */
    snprintf(path, sizeof path, "mkdir -p %s/uio3/maps/map1", sysfs);
    CHECK_OK(system(path));
    snprintf(path, sizeof path, "%s/uio3/maps/map1/addr", sysfs);
    CHECK_OK(put(path, "0x30000000\n"));
    snprintf(path, sizeof path, "%s/uio3/maps/map1/size", sysfs);
    CHECK_OK(put(path, "0x2000\n"));
    fd = open(devpath, O_RDWR);
    CHECK(fd >= 0 && ftruncate(fd, page + 0x2000) == 0);
    close(fd);
    poke((uint32_t)page + 8u, 0xC0FFEEu);
    CHECK_OK(jointer_uio_ring_open(&ring, devpath, &p));
    CHECK_EQ(ring.bus_addr, 0x30000000u);
    CHECK_EQ(ring.size, 0x2000u);
    CHECK_EQ(((volatile uint32_t *)ring.mem)[2], 0xC0FFEEu);
    CHECK_OK(jointer_ring_close(&ring));
    CHECK(ring.mem == NULL);
    CHECK_OK(jointer_devmem_ring_open(&ring, (uint64_t)page, 0x1000, devpath));
    CHECK_EQ(ring.bus_addr, (uint32_t)page);
    CHECK_EQ(((volatile uint32_t *)ring.mem)[2], 0xC0FFEEu);
    CHECK_OK(jointer_ring_close(&ring));
    snprintf(path, sizeof path, "%s/uio3/maps/map1/size", sysfs);
    CHECK_OK(put(path, "0x1800\n")); /* not a multiple of 4 KB */
    CHECK_EQ(jointer_uio_ring_open(&ring, devpath, &p), -EINVAL);
    CHECK_EQ(jointer_devmem_ring_open(&ring, 0x100, 0x1000, devpath), -EINVAL);
    CHECK_EQ(jointer_devmem_ring_open(&ring, 0, 0, devpath), -EINVAL);
    CHECK_EQ(jointer_uio_ring_open(NULL, devpath, &p), -EINVAL);
}

/* a name file for sysfs/<dir> (created) */
static int name_uio(const char *dir, const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "mkdir -p %s/%s", sysfs, dir);
    if (system(path) != 0)
        return -1;
    snprintf(path, sizeof path, "%s/%s/name", sysfs, dir);
    return put(path, name);
}

/* uio:name=: several UIO devices, the monitor's is uio3 (its device file is root/uio3) */
TEST(uio_by_name)
{
    jointer_uio_params p = {NULL, NULL, 0, NULL};
    char path[512], found[256], want[512];
    uint64_t v;

    CHECK_OK(make_tree("0x1000\n", "0x43c00000\n", "0x0\n", 0));
    p.sysfs_root = sysfs;
    p.dev_root = root;
    CHECK_OK(name_uio("uio3", "accel_mon\n"));
    CHECK_OK(name_uio("uio0", "axi_dma\n"));
    CHECK_OK(name_uio("uio12", "dup\n"));
    CHECK_OK(name_uio("uio5", "dup")); /* no newline: the kernel writes one, a name needs none */
    CHECK_OK(name_uio("uioX", "accel_mon\n")); /* not uio<number>: not a UIO device */
    CHECK_OK(name_uio("power", "accel_mon\n"));

    CHECK_OK(jointer_uio_find("accel_mon", &p, path, sizeof path, found, sizeof found));
    snprintf(want, sizeof want, "%s/uio3", root);
    CHECK_STR(path, want);
    CHECK_STR(found, "uio0 (axi_dma), uio3 (accel_mon), uio5 (dup), uio12 (dup)");
    CHECK_EQ(jointer_uio_find("accel", &p, path, sizeof path, found, sizeof found), -ENOENT); /* whole names */
    CHECK_STR(found, "uio0 (axi_dma), uio3 (accel_mon), uio5 (dup), uio12 (dup)");
    CHECK_EQ(jointer_uio_find("dup", &p, path, sizeof path, NULL, 0), -ENOTUNIQ);
    CHECK_EQ(jointer_uio_find("dup", &p, path, sizeof path, found, 20), -ENOTUNIQ);
    CHECK_STR(found, "uio0 (axi_dma)"); /* whole entries that fit, never beyond */
    CHECK_EQ(jointer_uio_find("", &p, path, sizeof path, NULL, 0), -EINVAL);
    CHECK_EQ(jointer_uio_find("accel_mon", &p, path, 8, NULL, 0), -ENAMETOOLONG);

    /* the port itself: open, read, and the errors through jointer_uio_open */
    CHECK_OK(jointer_uio_open(&Y.dev, &accel_mon_cfg, "name=accel_mon", &p, 0));
    CHECK_OK(jointer_attach_bounds(&Y.dev, Y.bounds, 2 * ACCEL_MON_NUM_DCAPFS));
    CHECK_OK(accel_mon_read_mac_fires(&Y, &v));
    CHECK_EQ(v, 321);
    CHECK_OK(accel_mon_close(&Y));
    CHECK_EQ(jointer_uio_open(&Y.dev, &accel_mon_cfg, "name=nope", &p, 0), -ENOENT);
    CHECK_EQ(jointer_uio_open(&Y.dev, &accel_mon_cfg, "name=dup", &p, 0), -ENOTUNIQ);
    CHECK_STR(jointer_strerror(-ENOTUNIQ), "several devices have that name (uio:name=)");

    /* no UIO device at all; no sysfs class at all */
    snprintf(want, sizeof want, "%s/empty", root);
    CHECK_EQ(mkdir(want, 0700), 0);
    p.sysfs_root = want;
    CHECK_EQ(jointer_uio_find("accel_mon", &p, path, sizeof path, found, sizeof found), -ENOENT);
    CHECK_STR(found, "");
    snprintf(want, sizeof want, "%s/none", root);
    CHECK_EQ(jointer_uio_find("accel_mon", &p, path, sizeof path, found, sizeof found), -ENOENT);
}

/* one process of two_processes_share_control: drives sniffer `s` of LMIC accel
 * (modes, run, stop, reads) n times; after each mode write the device's CONTROL
 * must still hold it (another process's write never carries a stale copy);
 * ends with mode `last` and RUN. Exit status: writes found lost (0 or 1). */
static int driver_process(unsigned s, jointer_mode last, int n, int go)
{
    static accel_mon_dev D;
    jointer_uio_params p = {sysfs, NULL, 0, NULL};
    volatile uint32_t *regs;
    uint64_t v;
    int fd = open(devpath, O_RDONLY), lost = 0, i;

    regs = mmap(NULL, 0x1000, PROT_READ, MAP_SHARED, fd, 0);
    if (fd < 0 || regs == MAP_FAILED || jointer_uio_open(&D.dev, &accel_mon_cfg, devpath, &p, 0) != 0
        || jointer_attach_bounds(&D.dev, D.bounds, 2 * ACCEL_MON_NUM_DCAPFS) != 0)
        return 2;
    if (read(go, &v, 1) != 1) /* both open, then both start */
        return 2;
    for (i = 0; i < n; i++) {
        jointer_mode m = (i & 1) ? JOINTER_FILTERING : JOINTER_NO_FILTERING;
        if (jointer_set_mode(&D.dev, ACCEL_MON_LMIC_ACCEL, s, m) != 0)
            return 2;
        if (((regs[ACCEL_MON_ACCEL_CONTROL / 4] >> JOINTER_PROG_SHIFT(s)) & 3u) != (uint32_t)m)
            lost = 1;
        if ((i % 3 == 0 ? jointer_run(&D.dev, 0) : i % 3 == 1 ? jointer_stop(&D.dev, 0)
             : accel_mon_read_compute_cycles(&D, &v)) != 0)
            return 2;
    }
    if (jointer_set_mode(&D.dev, ACCEL_MON_LMIC_ACCEL, s, last) != 0 || jointer_run(&D.dev, 0) != 0)
        return 2;
    jointer_close(&D.dev);
    return lost;
}

/* two processes, one device (each its own jointer_dev, as a CLI and an exporter):
 * with the port's lock and CONTROL read back, no write of one is undone by the other */
TEST(two_processes_share_control)
{
    pid_t pid[2];
    int k, status, go[2];

    CHECK_OK(make_tree("0x1000\n", "0x43c00000\n", "0x0\n", 0));
    CHECK_OK(pipe(go));
    for (k = 0; k < 2; k++) {
        pid[k] = fork();
        CHECK(pid[k] >= 0);
        if (pid[k] == 0)
            _exit(driver_process(k == 0 ? ACCEL_MON_SNIFFER_TASK : ACCEL_MON_SNIFFER_OPERATION,
                                 k == 0 ? JOINTER_NO_FILTERING : JOINTER_FILTERING, 20000, go[0]));
    }
    sleep(1);
    CHECK_EQ(write(go[1], "ab", 2), 2);
    for (k = 0; k < 2; k++) {
        CHECK_EQ(waitpid(pid[k], &status, 0), pid[k]);
        CHECK(WIFEXITED(status));
        CHECK_EQ(WEXITSTATUS(status), 0);
    }
    CHECK_EQ(peek(ACCEL_MON_ACCEL_CONTROL) & ~JOINTER_CONTROL_SOFT_RESET,
             JOINTER_CONTROL_RUN | (3u << JOINTER_PROG_SHIFT(ACCEL_MON_SNIFFER_TASK))
             | (2u << JOINTER_PROG_SHIFT(ACCEL_MON_SNIFFER_OPERATION)));
}

static const jt_case cases[] = {
    JT_CASE(two_processes_share_control),
    JT_CASE(uio_by_name),
    JT_CASE(uio_maps_reads_and_writes_the_device),
    JT_CASE(uio_offset_from_the_low_address_bits),
    JT_CASE(uio_errors),
    JT_CASE(uio_irq_arm_poll_read),
    JT_CASE(uio_trace_relay_step),
    JT_CASE(devmem_maps_exactly_the_monitor),
    JT_CASE(open_spec_parsing),
    JT_CASE(ring_maps_uio_map1_and_devmem),
};

int main(int argc, char **argv)
{
    char tmpl[] = "/tmp/jointer-uio-XXXXXX";
    char cmd[128];
    int r;
    if (mkdtemp(tmpl) == NULL)
        return 1;
    setenv("TMPDIR", tmpl, 1);
    r = jt_run("test_uio", cases, sizeof cases / sizeof cases[0], argc, argv);
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmpl);
    if (system(cmd) != 0)
        r = 1;
    return r;
}
