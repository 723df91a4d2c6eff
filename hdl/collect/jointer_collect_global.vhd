-- SPDX-License-Identifier: MIT
-- jointer_collect_global: the global block at window 0 of the register space
-- (the "global monitor" of paper fig. 5 / section 3.1.1: identification, the
-- top-level interrupt controller and, when the monitor asks for them, the
-- bus-clock timestamp, the host MARK event, a scratch register and the
-- descriptor ROM). Runs on the bus clock; register port (rp) as
-- doc/internals/collect.md.
--   word 0 ID (0x4A4E5452)          ro  word 6  TIMESTAMP_LO (snapshots HI) ro  [has_timestamp_g]
--   word 1 VERSION                  ro  word 7  TIMESTAMP_HI (the snapshot) ro  [has_timestamp_g]
--   word 2 CONFIG_HASH              ro  word 8  MARK (write: a mark event)  wo  [has_mark_g]
--   word 3 INFO                     ro  word 9  SCRATCH                     rw  [has_scratch_g]
--   word 4 IRQ_STATUS (lmic_irq)    ro  word 10 DESC_INDEX                  rw  [desc_words_g > 0]
--   word 5 IRQ_ENABLE (bit i: LMIC) rw  word 11 DESC_DATA (the ROM word)    ro  [desc_words_g > 0]
-- DESC_INDEX holds min(the value written, desc_words_g) in
-- clog2(desc_words_g + 1) bits (so it reads back the ROM size after a write
-- of 0xFFFFFFFF); DESC_DATA answers the ROM word at DESC_INDEX
-- (jointer_collect_desc_rom, read with the request), 0 at desc_words_g and
-- beyond. Reading it has no side effect.
-- Absent and unmapped words read 0 (SLVERR when strict_g); writes to
-- read-only words are ignored. Every access is answered one cycle after
-- rp_req (SLVERR, RDATA 0 and nothing written, when rst is high then); the read answer is held until the start of the next access to any
-- target (rp_start), and is 0 from then on unless that access reads a word
-- here: the DCI takes it without gating it (what changes by itself,
-- IRQ_STATUS and the timestamp, is captured; the other words are constants
-- or change only by a host write, which cannot come before the answer was
-- taken). The word shown is kept as a dense code of the present words (0:
-- none), so each bit of the answer is one small function of a few bits.
-- Writes take effect on rp_commit, with rp_addr and rp_wdata, which the DCI
-- still holds in that cycle: the global block is never behind a clock
-- crossing, so the DCI commits it from a flip-flop one cycle after the
-- answer, in the address handshake (jointer_collect_dci); a reset then
-- drops the write and clears what it would have set (IRQ_ENABLE, SCRATCH,
-- DESC_INDEX; a MARK event goes to a sniffer in that same reset).
-- irq = OR(lmic_irq and IRQ_ENABLE), registered. mark_valid
-- pulses in the commit cycle of a MARK write, with mark_data = rp_wdata.
-- Generics:
--   addr_w_g        : word-address bits of the window (4..30)
--   strict_g        : SLVERR on unmapped words
--   config_hash_g   : CONFIG_HASH value (hash of the normalised YAML)
--   info_g          : INFO value (checked against the other generics):
--                     [7:0] LMICs, [15:8] log2 window bytes, [16] strict,
--                     [17] TIMESTAMP, [18] MARK, [19] SCRATCH, [20] the
--                     descriptor ROM present
--   num_lmics_g     : number of LMICs (1..16)
--   has_timestamp_g : TIMESTAMP_LO/HI (the timestamp input: the bus clock's
--                     jointer_collect_timestamp, which the generator adds then)
--   has_mark_g      : the MARK register (a host-timestamp sniffer listens)
--   has_scratch_g   : the SCRATCH register
--   desc_words_g    : words of the descriptor ROM (0: none, and no
--                     DESC_INDEX/DESC_DATA; at most 65535)
--   desc_rom_g      : its contents, word 0 first (file byte 4i+k is bits
--                     8k+7..8k of word i); ignored when desc_words_g = 0

library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;

use work.jointer_pkg.all;

entity jointer_collect_global is
  generic (
    addr_w_g        : positive := 4;
    strict_g        : boolean := false;
    config_hash_g   : std_logic_vector(31 downto 0) := x"00000000";
    info_g          : std_logic_vector(31 downto 0) := x"000E0601";
    num_lmics_g     : positive := 1;
    has_timestamp_g : boolean := true;
    has_mark_g      : boolean := true;
    has_scratch_g   : boolean := true;
    desc_words_g    : natural := 0;
    desc_rom_g      : word_array_t := (0 => x"00000000"));
  port (
    clk        : in  std_logic;
    rst        : in  std_logic;
    -- register port
    rp_req     : in  std_logic;
    rp_start   : in  std_logic;  -- any access starts (here or elsewhere): the answer goes to 0
    rp_commit  : in  std_logic;
    rp_we      : in  std_logic;
    rp_addr    : in  std_logic_vector(addr_w_g - 1 downto 0);
    rp_wdata   : in  std_logic_vector(31 downto 0);
    rp_ack     : out std_logic;
    rp_rdata   : out std_logic_vector(31 downto 0);
    rp_err     : out std_logic;
    -- interrupts
    lmic_irq   : in  std_logic_vector(num_lmics_g - 1 downto 0);  -- synchronised levels
    irq        : out std_logic;
    -- host mark event (to the host-timestamp sniffer)
    mark_valid : out std_logic;
    mark_data  : out std_logic_vector(31 downto 0);
    -- the bus-clock timestamp (has_timestamp_g), from a jointer_collect_timestamp
    timestamp  : in  std_logic_vector(63 downto 0) := (others => '0'));
end entity jointer_collect_global;

architecture rtl of jointer_collect_global is
  constant words_c : positive := 12;
  constant has_desc_c : boolean := desc_words_g > 0;
  -- words that exist in this monitor
  constant have_c : std_logic_vector(0 to words_c - 1) :=
    "111111" & to_sl(has_timestamp_g) & to_sl(has_timestamp_g) & to_sl(has_mark_g)
    & to_sl(has_scratch_g) & to_sl(has_desc_c) & to_sl(has_desc_c);
  -- DESC_INDEX bits: 0 .. desc_words_g (the ROM's first word beyond the file, 0)
  constant desc_w_c : positive := maximum(1, clog2(desc_words_g + 1));
  type code_arr_t is array (0 to words_c - 1) of natural;
  -- the dense code of each readable word (1, 2, ...; 0: not readable here)
  function codes_f return code_arr_t is
    variable r : code_arr_t := (others => 0);
    variable n : natural := 0;
  begin
    for k in 0 to words_c - 1 loop
      if have_c(k) = '1' and k /= 8 then  -- MARK is write-only
        n    := n + 1;
        r(k) := n;
      end if;
    end loop;
    return r;
  end function;
  constant code_c   : code_arr_t := codes_f;
  function max_code_f return natural is
    variable m : natural := 0;
  begin
    for k in 0 to words_c - 1 loop
      m := maximum(m, code_c(k));
    end loop;
    return m;
  end function;
  constant code_w_c : positive := clog2(max_code_f + 1);

  signal hit      : std_logic_vector(0 to words_c - 1);  -- rp_addr decoded
  signal show_r   : unsigned(code_w_c - 1 downto 0);     -- the code of the word the answer shows
  signal ack_r    : std_logic;
  signal err_r    : std_logic;
  signal sts_r    : std_logic_vector(num_lmics_g - 1 downto 0);  -- IRQ_STATUS when read
  signal enable_r : std_logic_vector(num_lmics_g - 1 downto 0);
  signal irq_r    : std_logic;
  signal ts_lo_r  : std_logic_vector(31 downto 0);  -- TIMESTAMP_LO when read
  signal ts_hi_r  : std_logic_vector(31 downto 0);  -- TIMESTAMP_HI snapshot
  signal scratch_r : std_logic_vector(31 downto 0);
  signal wr       : std_logic;                      -- a committed write
  signal sts, ena : std_logic_vector(31 downto 0);
  signal rd_code  : unsigned(code_w_c - 1 downto 0);  -- the code of rp_addr
  signal desc_idx_r  : std_logic_vector(desc_w_c - 1 downto 0);  -- DESC_INDEX
  signal desc_en     : std_logic;                      -- a read of DESC_DATA: the ROM reads
  signal desc_q      : std_logic_vector(31 downto 0);  -- the ROM word of the last DESC_DATA read
  signal desc_idx    : std_logic_vector(31 downto 0);

  function shows(c : unsigned; k : natural) return std_logic_vector is
  begin
    if code_c(k) = 0 then
      return (31 downto 0 => '0');
    end if;
    return (31 downto 0 => to_sl(c = code_c(k)));
  end function;
begin

  assert addr_w_g >= 4 and addr_w_g <= 30
    report "jointer_collect_global: addr_w_g must be 4..30 (10 registers)" severity failure;
  assert num_lmics_g <= 16
    report "jointer_collect_global: num_lmics_g must be 1..16" severity failure;
  assert to_integer(unsigned(info_g(7 downto 0))) = num_lmics_g
    report "jointer_collect_global: info_g[7:0] must equal num_lmics_g" severity failure;
  assert to_integer(unsigned(info_g(15 downto 8))) = addr_w_g + 2
    report "jointer_collect_global: info_g[15:8] must be log2 window bytes = addr_w_g + 2"
    severity failure;
  assert (info_g(16) = '1') = strict_g and (info_g(17) = '1') = has_timestamp_g
         and (info_g(18) = '1') = has_mark_g and (info_g(19) = '1') = has_scratch_g
         and (info_g(20) = '1') = has_desc_c
    report "jointer_collect_global: info_g[20:16] must state strict_g and the optional registers"
    severity failure;
  assert desc_words_g <= 65535 and (desc_words_g = 0 or desc_rom_g'length = desc_words_g)
    report "jointer_collect_global: desc_rom_g must hold desc_words_g (0..65535) words"
    severity failure;

  g_hit : for k in 0 to words_c - 1 generate
    hit(k) <= to_sl(unsigned(rp_addr) = k) and have_c(k);
  end generate;

  process (all)
    variable c : unsigned(code_w_c - 1 downto 0);
  begin
    c := (others => '0');
    for k in 0 to words_c - 1 loop
      if hit(k) = '1' and code_c(k) /= 0 then
        c := c or to_unsigned(code_c(k), code_w_c);
      end if;
    end loop;
    rd_code <= c;
  end process;

  wr <= rp_commit and rp_we;

  process (clk)
  begin
    if rising_edge(clk) then
      ack_r  <= rp_req;
      if rp_start = '1' then
        show_r <= (others => '0');
      end if;
      if rp_req = '1' then
        -- the answer: which word (reads only), and what changes by itself
        show_r <= (others => '0');
        if rp_we = '0' then
          show_r <= rd_code;
        end if;
        err_r  <= not (or hit) and to_sl(strict_g);
        sts_r  <= lmic_irq;
        if hit(6) = '1' and rp_we = '0' then
          ts_lo_r <= timestamp(31 downto 0);
          ts_hi_r <= timestamp(63 downto 32);
        end if;
      end if;
      if wr = '1' and hit(5) = '1' then
        enable_r <= rp_wdata(num_lmics_g - 1 downto 0);
      end if;
      if wr = '1' and hit(9) = '1' then
        scratch_r <= rp_wdata;
      end if;
      if wr = '1' and hit(10) = '1' then
        desc_idx_r <= rp_wdata(desc_w_c - 1 downto 0);
        if unsigned(rp_wdata) >= desc_words_g then
          desc_idx_r <= std_logic_vector(to_unsigned(desc_words_g, desc_w_c));
        end if;
      end if;
      irq_r  <= or (lmic_irq and enable_r);
      if rst = '1' then
        err_r     <= '1';  -- a request in reset is answered SLVERR, never dropped
        show_r    <= (others => '0');
        enable_r  <= (others => '0');
        scratch_r <= (others => '0');
        ts_hi_r   <= (others => '0');
        desc_idx_r  <= (others => '0');
        irq_r     <= '0';
      end if;
    end if;
  end process;

  sts <= std_logic_vector(resize(unsigned(sts_r), 32));
  ena <= std_logic_vector(resize(unsigned(enable_r), 32));

  -- the descriptor ROM: read with the request of a DESC_DATA read, its word
  -- held (the answer) until the next one
  desc_en <= rp_req and hit(11) and not rp_we;
  g_desc : if has_desc_c generate
    u_rom : entity work.jointer_collect_desc_rom
      generic map (addr_w_g => desc_w_c, words_g => desc_rom_g)
      port map (clk => clk, en => desc_en, addr => desc_idx_r, q => desc_q);
  end generate;
  g_no_desc : if not has_desc_c generate
    desc_q <= (others => '0');
  end generate;
  desc_idx <= std_logic_vector(resize(unsigned(desc_idx_r), 32));

  -- the held answer (no case/others, doc/internals/README.md)
  rp_rdata <= (shows(show_r, 0) and id_c)
           or (shows(show_r, 1) and version_c)
           or (shows(show_r, 2) and config_hash_g)
           or (shows(show_r, 3) and info_g)
           or (shows(show_r, 4) and sts)
           or (shows(show_r, 5) and ena)
           or (shows(show_r, 6) and ts_lo_r)
           or (shows(show_r, 7) and ts_hi_r)
           or (shows(show_r, 9) and scratch_r)
           or (shows(show_r, 10) and desc_idx)
           or (shows(show_r, 11) and desc_q);
  rp_ack     <= ack_r;
  rp_err     <= err_r;
  irq        <= irq_r;
  mark_valid <= wr and hit(8);  -- in the commit cycle, while the DCI holds rp_wdata
  mark_data  <= rp_wdata;

end architecture rtl;
