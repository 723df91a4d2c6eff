-- SPDX-License-Identifier: MIT
-- jointer_eig_axi4: passive AXI4 (full) tap, one candidate per burst or per
-- beat (paper section 3: EIG interfacer for AXI4-Full and burst-based buses,
-- the transaction-level sniffer of section 3.3 / Table 3).
--
-- Every observed input it uses is registered once (all mon_* ports are
-- inputs; no combinational path from them to an output; the bus is never
-- driven). The outputs are combinational from those registers and the
-- tracking state below. "Latency n" = the candidate is sampled at the n-th
-- rising edge after the handshake that completes it.
--
-- Write (dir_g = dir_write_c). W beats follow AW order (AXI4 has no WID) and
-- may come before, with or after their AW. Two queues in distributed RAM
-- (jointer_eig_aw_w_pair, shared with jointer_eig_axi4lite):
-- AWADDR per AW, and per completed W burst its byte count (per burst: the sum
-- of popcount(WSTRB) over its beats - the real strobes, not 2^AWSIZE) or per
-- W beat its popcount(WSTRB) and WLAST (per beat). While both queues hold an
-- entry, one candidate per cycle: data = the head AWADDR (zero-extended to
-- ev_w_g bits), bytes = the head W entry; the AW entry leaves
-- with the burst's last beat. Latency 2 after the later of the AW handshake
-- and the WLAST beat (per beat: of that beat); per beat, beats held because
-- they came before their AW then leave one per cycle, so each later beat
-- waits behind them: a backlog only shrinks in cycles without a W beat.
-- Bounds (D = max_outstanding_g + 1 rounded up to a power of 2, 16 for 8):
-- per burst, up to max_outstanding_g AWs ahead of the end of their W burst
-- and up to max_outstanding_g complete W bursts ahead of their AW (the
-- queues hold D); per beat, up to 256 W beats not yet reported (a whole
-- 256-beat burst may come before its AW) and D - 1 AWs whose beats are not
-- all reported. Beyond a bound the surplus entry is dropped: no candidate for
-- it, and the later bursts are paired wrongly until reset.
-- AWID, AWLEN, AWSIZE, WDATA and the B channel are not needed and ignored.
--
-- Read (dir_g = dir_read_c). Bursts are identified by ARID: R beats of
-- different IDs may interleave, bursts of one ID complete in AR order. The
-- outstanding table (jointer_eig_id_table, shared with
-- jointer_eig_axi4_latency) of max_outstanding_g entries finds the burst of
-- each R beat, the oldest outstanding one with RID, and holds its ARADDR and
-- payload; the RLAST beat frees its entry (reusable in the same cycle). Per burst: a candidate at the RLAST beat, bytes = (ARLEN+1) x
-- 2^ARSIZE (beats x bytes per beat of a compliant burst); per beat: a
-- candidate per R beat, bytes = 2^ARSIZE; data = ARADDR (zero-extended to
-- ev_w_g bits). ARSIZE above the data width (illegal) counts
-- as the data width. Latency 1 after the R beat.
-- Bound: up to max_outstanding_g reads in flight (AR handshaken, RLAST not
-- yet). An AR finding the table full is not tracked: the R beats of its
-- burst give no candidate (or, when a later AR with the same ID is tracked
-- first, are counted for that one); the table recovers by itself. R beats
-- matching no entry are ignored. RDATA, RRESP and the AW/W/B channels are
-- ignored.
--
-- Reset (rst, synchronous): empties the queues and the table; handshakes
-- seen while rst is high give no candidate. Release it while the bus is idle
-- (a burst cut by the reset is reported partially or paired wrongly).
--
--   dir_g             : dir_write_c (0) or dir_read_c (1)
--   addr_w_g          : AWADDR/ARADDR width (1..64)
--   data_w_g          : WDATA/RDATA width (8..1024, a power of 2)
--   id_w_g            : AWID/BID/ARID/RID width (1..16; tie to 0 when absent)
--   per_beat_g        : false = a candidate per burst, true = per beat
--   max_outstanding_g : bursts in flight per direction (1..32)
--   ranges_g          : write per burst: DCAPF filters evaluated
--                       here, where AWADDR is captured (0..8): bit k of
--                       cand_in_range = rng_low(k) <= AWADDR <= rng_high(k)
--                       (unsigned, every kept address bit), carried through the AW queue
--                       instead of the address
--   keep_data_g       : write per burst: carry the address to cand_data
--                       (false: cand_data = 0, the AW queue holds only the
--                       in-range bits; for sniffers whose DCAPFs use the
--                       address only through those filters)
--   ev_w_g            : width of cand_data and of each rng_low/rng_high bound:
--                       32, or 64 for an address of 33..64 bits (the
--                       generator sets it from addr_w_g; an address wider
--                       than ev_w_g keeps its low ev_w_g bits)

library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;
use work.jointer_pkg.all;

entity jointer_eig_axi4 is
  generic (
    dir_g             : natural  := dir_write_c;
    addr_w_g          : positive := 32;
    data_w_g          : positive := 32;
    id_w_g            : positive := 4;
    per_beat_g        : boolean  := false;
    max_outstanding_g : positive := 8;
    ranges_g          : natural  := 0;
    keep_data_g       : boolean  := true;
    ev_w_g            : positive := data_w_c);
  port (
    clk         : in  std_logic;
    rst         : in  std_logic;
    -- the observed bus (all inputs)
    mon_awid    : in  std_logic_vector(id_w_g - 1 downto 0);
    mon_awaddr  : in  std_logic_vector(addr_w_g - 1 downto 0);
    mon_awlen   : in  std_logic_vector(7 downto 0);
    mon_awsize  : in  std_logic_vector(2 downto 0);
    mon_awburst : in  std_logic_vector(1 downto 0);
    mon_awlock  : in  std_logic;
    mon_awcache : in  std_logic_vector(3 downto 0);
    mon_awprot  : in  std_logic_vector(2 downto 0);
    mon_awqos   : in  std_logic_vector(3 downto 0);
    mon_awvalid : in  std_logic;
    mon_awready : in  std_logic;
    mon_wdata   : in  std_logic_vector(data_w_g - 1 downto 0);
    mon_wstrb   : in  std_logic_vector(data_w_g / 8 - 1 downto 0);
    mon_wlast   : in  std_logic;
    mon_wvalid  : in  std_logic;
    mon_wready  : in  std_logic;
    mon_bid     : in  std_logic_vector(id_w_g - 1 downto 0);
    mon_bresp   : in  std_logic_vector(1 downto 0);
    mon_bvalid  : in  std_logic;
    mon_bready  : in  std_logic;
    mon_arid    : in  std_logic_vector(id_w_g - 1 downto 0);
    mon_araddr  : in  std_logic_vector(addr_w_g - 1 downto 0);
    mon_arlen   : in  std_logic_vector(7 downto 0);
    mon_arsize  : in  std_logic_vector(2 downto 0);
    mon_arburst : in  std_logic_vector(1 downto 0);
    mon_arlock  : in  std_logic;
    mon_arcache : in  std_logic_vector(3 downto 0);
    mon_arprot  : in  std_logic_vector(2 downto 0);
    mon_arqos   : in  std_logic_vector(3 downto 0);
    mon_arvalid : in  std_logic;
    mon_arready : in  std_logic;
    mon_rid     : in  std_logic_vector(id_w_g - 1 downto 0);
    mon_rdata   : in  std_logic_vector(data_w_g - 1 downto 0);
    mon_rresp   : in  std_logic_vector(1 downto 0);
    mon_rlast   : in  std_logic;
    mon_rvalid  : in  std_logic;
    mon_rready  : in  std_logic;
    -- filter bounds of the capture-time ranges (ranges_g; ev_w_g bits each)
    rng_low     : in  std_logic_vector(ev_w_g * maximum(ranges_g, 1) - 1 downto 0) := (others => '0');
    rng_high    : in  std_logic_vector(ev_w_g * maximum(ranges_g, 1) - 1 downto 0) := (others => '1');
    -- candidate
    cand_in_range : out std_logic_vector(maximum(ranges_g, 1) - 1 downto 0);
    cand_valid  : out std_logic_vector(0 downto 0);
    cand_data   : out std_logic_vector(ev_w_g - 1 downto 0);
    cand_bytes  : out std_logic_vector(inc_w_c - 1 downto 0));
end entity jointer_eig_axi4;

architecture rtl of jointer_eig_axi4 is
  constant strb_w_c  : positive := maximum(data_w_g / 8, 1);
  constant keep_w_c  : positive := minimum(addr_w_g, ev_w_g);    -- address bits kept
  constant pc_w_c    : positive := clog2(strb_w_c + 1);           -- popcount(WSTRB) bits
  constant burst_w_c : positive := clog2(256 * strb_w_c + 1);     -- bytes of a W burst

  function sel(b : boolean; t, f : positive) return positive is
  begin
    if b then
      return t;
    end if;
    return f;
  end function;

  function is_pow2(n : positive) return boolean is
  begin
    return 2 ** clog2(n) = n;
  end function;
begin

  assert dir_g = dir_write_c or dir_g = dir_read_c
    report "jointer_eig_axi4: dir_g must be dir_write_c or dir_read_c" severity failure;
  assert addr_w_g <= 64
    report "jointer_eig_axi4: addr_w_g must be 1..64" severity failure;
  assert data_w_g >= 8 and data_w_g <= 1024 and is_pow2(data_w_g)
    report "jointer_eig_axi4: data_w_g must be a power of 2 in 8..1024" severity failure;
  assert id_w_g <= 16
    report "jointer_eig_axi4: id_w_g must be 1..16" severity failure;
  assert max_outstanding_g <= 32
    report "jointer_eig_axi4: max_outstanding_g must be 1..32" severity failure;
  assert ranges_g <= 8 and ((ranges_g = 0 and keep_data_g) or (dir_g = dir_write_c and not per_beat_g))
    report "jointer_eig_axi4: ranges_g / keep_data_g are for write per burst (ranges_g 0..8)"
    severity failure;

  ---------------------------------------------------------------------------
  -- Write: AW queue + W queue (bursts or beats), paired in order
  ---------------------------------------------------------------------------
  g_write : if dir_g = dir_write_c generate
    -- queue depths (powers of 2; +1: the pipeline holds a finished entry one
    -- cycle longer than the bus does)
    constant aw_depth_c : positive := 2 ** clog2(max_outstanding_g + 1);
    constant w_depth_c  : positive := sel(per_beat_g, 256, aw_depth_c);
    -- W entry: per burst its byte count; per beat popcount & WLAST
    constant w_ent_w_c  : positive := sel(per_beat_g, pc_w_c + 1, burst_w_c);
    -- AW entry: the address (keep_data_g), then the in-range bits
    constant a_w_c      : natural  := keep_w_c * boolean'pos(keep_data_g);
    constant aw_ent_w_c : positive := maximum(a_w_c + ranges_g, 1);
    signal aw_hs_r  : std_logic;                   -- inputs, registered once
    signal aw_ent_r : std_logic_vector(aw_ent_w_c - 1 downto 0);  -- address and/or in-range bits
    signal aw_ent   : std_logic_vector(aw_ent_w_c - 1 downto 0);
    signal aw_head  : std_logic_vector(aw_ent_w_c - 1 downto 0);
    signal w_hs_r   : std_logic;
    signal wlast_r  : std_logic;
    signal wstrb_r  : std_logic_vector(strb_w_c - 1 downto 0);
    signal wacc     : unsigned(burst_w_c - 1 downto 0);  -- bytes of the W burst so far
    signal wsum     : unsigned(burst_w_c - 1 downto 0);  -- ... including this beat
    signal w_push   : std_logic;
    signal w_in     : std_logic_vector(w_ent_w_c - 1 downto 0);
    signal w_head   : std_logic_vector(w_ent_w_c - 1 downto 0);
    signal fire     : std_logic;                   -- a candidate leaves the queues
    signal aw_pop_en : std_logic;                  -- ... and takes the AW entry with it
  begin
    wsum <= wacc + resize(popcount(wstrb_r), burst_w_c);

    g_burst : if not per_beat_g generate
      w_push     <= w_hs_r and wlast_r;
      w_in       <= std_logic_vector(wsum);
      aw_pop_en  <= '1';
      cand_bytes <= std_logic_vector(resize(unsigned(w_head), inc_w_c));
    end generate g_burst;

    g_beat : if per_beat_g generate
      w_push     <= w_hs_r;
      w_in       <= wlast_r & std_logic_vector(resize(popcount(wstrb_r), pc_w_c));
      aw_pop_en  <= w_head(pc_w_c);                -- the burst's last beat
      cand_bytes <= std_logic_vector(resize(unsigned(w_head(pc_w_c - 1 downto 0)), inc_w_c));
    end generate g_beat;

    u_pair : entity work.jointer_eig_aw_w_pair
      generic map (
        aw_w_g     => aw_ent_w_c,
        w_w_g      => w_ent_w_c,
        aw_depth_g => aw_depth_c,
        w_depth_g  => w_depth_c)
      port map (
        clk       => clk,
        rst       => rst,
        aw_push   => aw_hs_r,
        aw_in     => aw_ent_r,
        w_push    => w_push,
        w_in      => w_in,
        aw_pop_en => aw_pop_en,
        fire      => fire,
        aw_head   => aw_head,
        w_head    => w_head);

    -- what the AW queue keeps of an AW: its address and/or the in-range bits
    process (all)
      variable e : std_logic_vector(aw_ent_w_c - 1 downto 0);
      variable a : unsigned(ev_w_g - 1 downto 0);
    begin
      e := (others => '0');
      a := resize(unsigned(mon_awaddr(keep_w_c - 1 downto 0)), ev_w_g);
      if keep_data_g then
        e(a_w_c - 1 downto 0) := mon_awaddr(keep_w_c - 1 downto 0);
      end if;
      for k in 0 to ranges_g - 1 loop
        e(a_w_c + k) := to_sl(a >= unsigned(rng_low(ev_w_g * (k + 1) - 1 downto ev_w_g * k))
                              and a <= unsigned(rng_high(ev_w_g * (k + 1) - 1 downto ev_w_g * k)));
      end loop;
      aw_ent <= e;
    end process;

    cand_valid(0) <= fire;
    g_data : if keep_data_g generate
      cand_data <= std_logic_vector(resize(unsigned(aw_head(a_w_c - 1 downto 0)), ev_w_g));
    end generate;
    g_no_data : if not keep_data_g generate
      cand_data <= (others => '0');
    end generate;
    g_rng : if ranges_g > 0 generate
      cand_in_range <= aw_head(a_w_c + ranges_g - 1 downto a_w_c);
    end generate;
    g_no_rng : if ranges_g = 0 generate
      cand_in_range <= (others => '1');
    end generate;

    process (clk)
    begin
      if rising_edge(clk) then
        aw_hs_r  <= mon_awvalid and mon_awready;
        aw_ent_r <= aw_ent;
        w_hs_r   <= mon_wvalid and mon_wready;
        wlast_r  <= mon_wlast;
        wstrb_r  <= mon_wstrb(strb_w_c - 1 downto 0);
        if w_hs_r = '1' then
          wacc <= wsum;
          if wlast_r = '1' then
            wacc <= (others => '0');
          end if;
        end if;
        if rst = '1' then
          aw_hs_r <= '0';
          w_hs_r  <= '0';
          wacc    <= (others => '0');
        end if;
      end if;
    end process;
  end generate g_write;

  ---------------------------------------------------------------------------
  -- Read: table of outstanding bursts, searched by RID
  ---------------------------------------------------------------------------
  g_read : if dir_g = dir_read_c generate
    -- ARSIZE above the data width is illegal: it is clipped to the width
    constant size_max_c : natural  := clog2(strb_w_c);
    constant size_w_c   : positive := maximum(clog2(size_max_c + 1), 1);
    -- payload per entry: ARADDR, then per burst the burst's bytes, per beat
    -- the clipped ARSIZE
    constant pay_w_c : positive := sel(per_beat_g, size_w_c, burst_w_c);

    signal ar_hs_r  : std_logic;                   -- inputs, registered once
    signal arid_r   : std_logic_vector(id_w_g - 1 downto 0);
    signal addr_r   : std_logic_vector(keep_w_c - 1 downto 0);
    signal len_r    : unsigned(7 downto 0);
    signal size_r   : unsigned(2 downto 0);
    signal size_c   : unsigned(size_w_c - 1 downto 0);  -- clipped
    signal r_hs_r   : std_logic;
    signal rid_r    : std_logic_vector(id_w_g - 1 downto 0);
    signal rlast_r  : std_logic;

    signal hit      : std_logic;                   -- this R beat's burst is open
    signal pay_in   : std_logic_vector(pay_w_c - 1 downto 0);
    signal hit_pay  : std_logic_vector(keep_w_c + pay_w_c - 1 downto 0);  -- ARADDR & payload
    signal pay      : std_logic_vector(pay_w_c - 1 downto 0);
  begin
    -- the burst of each R beat: the oldest outstanding one with its RID
    u_table : entity work.jointer_eig_id_table
      generic map (
        max_outstanding_g => max_outstanding_g,
        id_w_g            => id_w_g,
        pay_w_g           => keep_w_c + pay_w_c)
      port map (
        clk        => clk,
        rst        => rst,
        open_hs    => ar_hs_r,
        open_id    => arid_r,
        open_pay   => addr_r & pay_in,
        close_hs   => r_hs_r,
        close_id   => rid_r,
        close_last => rlast_r,
        hit        => hit,
        hit_pay    => hit_pay);

    pay           <= hit_pay(pay_w_c - 1 downto 0);
    cand_data     <= std_logic_vector(resize(unsigned(hit_pay(keep_w_c + pay_w_c - 1 downto pay_w_c)), ev_w_g));
    cand_in_range <= (others => '1');

    size_c <= resize(size_r, size_w_c) when size_r <= size_max_c
              else to_unsigned(size_max_c, size_w_c);
    g_pay_burst : if not per_beat_g generate
      pay_in        <= std_logic_vector(shift_left(resize(len_r, burst_w_c) + 1, to_integer(size_c)));
      cand_valid(0) <= hit and rlast_r;
      cand_bytes    <= std_logic_vector(resize(unsigned(pay), inc_w_c));
    end generate g_pay_burst;
    g_pay_beat : if per_beat_g generate
      pay_in        <= std_logic_vector(size_c);
      cand_valid(0) <= hit;
      cand_bytes    <= std_logic_vector(shift_left(to_unsigned(1, inc_w_c), to_integer(unsigned(pay))));
    end generate g_pay_beat;

    process (clk)
    begin
      if rising_edge(clk) then
        ar_hs_r <= mon_arvalid and mon_arready;
        arid_r  <= mon_arid;
        addr_r  <= mon_araddr(keep_w_c - 1 downto 0);
        len_r   <= unsigned(mon_arlen);
        size_r  <= unsigned(mon_arsize);
        r_hs_r  <= mon_rvalid and mon_rready;
        rid_r   <= mon_rid;
        rlast_r <= mon_rlast;
        if rst = '1' then
          ar_hs_r <= '0';
          r_hs_r  <= '0';
        end if;
      end if;
    end process;
  end generate g_read;

end architecture rtl;
