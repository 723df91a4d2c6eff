-- jointer_collect_global: the global block at window 0 of the register space
-- (the "global monitor" of paper fig. 5 / section 3.1.1: identification, the
-- top-level interrupt controller, the bus-clock timestamp and the host MARK
-- event). Runs on the bus clock; register port (rp) as doc/internals.md 3.
--   word 0 ID (0x4A4E5452)      ro   word 5 IRQ_ENABLE (bit i: LMIC i) rw
--   word 1 VERSION              ro   word 6 TIMESTAMP_LO (snapshots HI)  ro
--   word 2 CONFIG_HASH          ro   word 7 TIMESTAMP_HI (the snapshot)  ro
--   word 3 INFO                 ro   word 8 MARK (write: one mark event) wo
--   word 4 IRQ_STATUS (lmic_irq)ro   word 9 SCRATCH                      rw
-- Unmapped words read 0 (SLVERR when strict_g); writes to read-only words are
-- ignored. The access is answered one cycle after rp_req. irq is
-- OR(lmic_irq and IRQ_ENABLE), registered. mark_valid pulses in the ack cycle
-- of a MARK write, with mark_data = rp_wdata (which the rp master holds from
-- the request through the acknowledge cycle).
-- Generics:
--   addr_w_g      : word-address bits of the window (4..30)
--   strict_g      : SLVERR on unmapped words
--   config_hash_g : CONFIG_HASH value (hash of the normalised YAML)
--   info_g        : INFO value: [7:0] LMICs, [15:8] log2 window bytes,
--                   [16] strict decode (checked against the other generics)
--   num_lmics_g   : number of LMICs (1..16)

library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;

use work.jointer_pkg.all;

entity jointer_collect_global is
  generic (
    addr_w_g      : positive := 4;
    strict_g      : boolean := false;
    config_hash_g : std_logic_vector(31 downto 0) := x"00000000";
    info_g        : std_logic_vector(31 downto 0) := x"00000601";
    num_lmics_g   : positive := 1);
  port (
    clk        : in  std_logic;
    rst        : in  std_logic;
    -- register port
    rp_req     : in  std_logic;
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
    -- bus-clock timestamp (jointer_collect_timestamp)
    timestamp  : in  std_logic_vector(63 downto 0));
end entity jointer_collect_global;

architecture rtl of jointer_collect_global is
  constant words_c : positive := 10;
  type hit_t is array (0 to words_c - 1) of std_logic;

  signal ack_r      : std_logic;
  signal rdata_r    : std_logic_vector(31 downto 0);
  signal err_r      : std_logic;
  signal enable_r   : std_logic_vector(num_lmics_g - 1 downto 0);
  signal scratch_r  : std_logic_vector(31 downto 0);
  signal ts_hi_r    : std_logic_vector(31 downto 0);
  signal irq_r      : std_logic;
  signal mark_r     : std_logic;
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
  assert (info_g(16) = '1') = strict_g
    report "jointer_collect_global: info_g[16] must equal strict_g" severity failure;

  process (clk)
    variable hit  : hit_t;
    variable any  : std_logic;
    variable rd   : std_logic;
    variable wr   : std_logic;
    variable data : std_logic_vector(31 downto 0);
    variable sts  : std_logic_vector(31 downto 0);
    variable ena  : std_logic_vector(31 downto 0);
  begin
    if rising_edge(clk) then
      any := '0';
      for k in 0 to words_c - 1 loop
        hit(k) := to_sl(unsigned(rp_addr) = k);
        any    := any or hit(k);
      end loop;
      rd  := rp_req and not rp_we;
      wr  := rp_req and rp_we;
      sts := (others => '0');
      sts(num_lmics_g - 1 downto 0) := lmic_irq;
      ena := (others => '0');
      ena(num_lmics_g - 1 downto 0) := enable_r;
      -- read: AND-OR mux (no case/others, see DESIGN.md 5)
      data := ((31 downto 0 => hit(0)) and id_c)
           or ((31 downto 0 => hit(1)) and version_c)
           or ((31 downto 0 => hit(2)) and config_hash_g)
           or ((31 downto 0 => hit(3)) and info_g)
           or ((31 downto 0 => hit(4)) and sts)
           or ((31 downto 0 => hit(5)) and ena)
           or ((31 downto 0 => hit(6)) and timestamp(31 downto 0))
           or ((31 downto 0 => hit(7)) and ts_hi_r)
           or ((31 downto 0 => hit(9)) and scratch_r);
      ack_r   <= rp_req;
      rdata_r <= (31 downto 0 => rd) and data;
      err_r   <= rp_req and not any and to_sl(strict_g);
      if rd = '1' and hit(6) = '1' then
        ts_hi_r <= timestamp(63 downto 32);
      end if;
      if wr = '1' and hit(5) = '1' then
        enable_r <= rp_wdata(num_lmics_g - 1 downto 0);
      end if;
      if wr = '1' and hit(9) = '1' then
        scratch_r <= rp_wdata;
      end if;
      mark_r <= wr and hit(8);
      irq_r <= or (lmic_irq and enable_r);
      if rst = '1' then
        ack_r     <= '0';
        enable_r  <= (others => '0');
        scratch_r <= (others => '0');
        ts_hi_r   <= (others => '0');
        irq_r     <= '0';
        mark_r    <= '0';
      end if;
    end if;
  end process;

  rp_ack     <= ack_r;
  rp_rdata   <= rdata_r;
  rp_err     <= err_r;
  irq        <= irq_r;
  mark_valid <= mark_r;
  mark_data  <= rp_wdata;  -- held by the rp master until (and in) the ack cycle

end architecture rtl;
