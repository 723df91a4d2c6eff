-- SPDX-License-Identifier: MIT
-- jointer_eig_axi4_latency: passive AXI4 (full) tap that emits, per
-- completed transaction, its latency in clock cycles as the candidate data
-- (an EIG interfacer like jointer_eig_axi4, whose ID
-- tracking it reuses). Aggregate the latencies with `sample: data`
-- DCAPFs: min, max, sum, mean, histogram.
--
-- Latency = the number of rising edges from the address handshake (AW or
-- AR, the edge where VALID and READY are both high) to the closing
-- handshake:
--   read  (dir_g = dir_read_c)  : the RLAST beat of the burst (>= 1);
--   write, end_g = latency_end_last_c : the WLAST beat of the burst; W beats
--          follow AW order and may lead their AW: a burst whose WLAST beat
--          comes with or before its AW handshake has latency 0;
--   write, end_g = latency_end_resp_c : the B handshake (BID) of the burst
--          (>= 1; B responses of one ID come in AW order).
-- cand_data = the latency modulo 2^32 (a transaction open for 2^32 cycles
-- or more is misreported), cand_bytes = 1 (emit increment `one` counts
-- transactions). The candidate is sampled one rising edge after the closing
-- handshake (latency 1 of the tap itself; it does not change the measured
-- value); two edges for the table (reads, writes ending at B): its lookup,
-- the start-time read and the subtraction end in a register, so that they
-- and the DCAPFs after the tap (a histogram's bucket compares) are not one
-- combinational path (13 LUT levels before; 33 flip-flops). At most one
-- candidate per cycle.
--
-- Every observed input it uses is registered once (all mon_* ports are
-- inputs; no combinational path from them to an output; the bus is never
-- driven). A free-running 32-bit cycle counter timestamps each open
-- transaction.
--
-- Read, and write with end_g = latency_end_resp_c: the outstanding table
-- (jointer_eig_id_table, shared with jointer_eig_axi4's read side) of
-- max_outstanding_g entries holds each open transaction's start timestamp;
-- the closing handshake (RLAST beat with RID, or B with BID) retires the
-- oldest open entry of that ID and gives the candidate. Bound: max_outstanding_g
-- transactions open; an address handshake finding the table full is not
-- tracked (its closing handshake gives no candidate, or is counted for a
-- later tracked one of the same ID); closing handshakes matching no entry
-- are ignored.
-- Write with end_g = latency_end_last_c: AW timestamps in a FIFO of
-- max_outstanding_g entries (AWs ahead of their WLAST beat) and a counter of
-- complete W bursts ahead of their AW (up to max_outstanding_g); the k-th
-- AW pairs with the k-th WLAST beat. Beyond a bound the surplus is dropped
-- (no candidate, later bursts paired wrongly until reset).
-- IDs of AW/W do not matter here; AWLEN/ARLEN are not needed (RLAST/WLAST
-- end the bursts); data, strobes and responses are ignored.
--
-- Reset (rst, synchronous): empties the table/FIFO and restarts the cycle
-- counter; handshakes seen while rst is high give no candidate. Release it
-- while the bus is idle.
--
--   dir_g             : dir_write_c (0) or dir_read_c (1)
--   end_g             : latency_end_last_c (0: RLAST/WLAST) or
--                       latency_end_resp_c (1: B handshake, writes only)
--   addr_w_g          : AWADDR/ARADDR width (1..64)
--   data_w_g          : WDATA/RDATA width (8..1024, a power of 2)
--   id_w_g            : AWID/BID/ARID/RID width (1..16; tie to 0 when absent)
--   max_outstanding_g : transactions in flight (1..32)

library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;
use work.jointer_pkg.all;

entity jointer_eig_axi4_latency is
  generic (
    dir_g             : natural  := dir_read_c;
    end_g             : natural  := latency_end_last_c;
    addr_w_g          : positive := 32;
    data_w_g          : positive := 32;
    id_w_g            : positive := 4;
    max_outstanding_g : positive := 8);
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
    -- candidate
    cand_valid  : out std_logic_vector(0 downto 0);
    cand_data   : out std_logic_vector(data_w_c - 1 downto 0);
    cand_bytes  : out std_logic_vector(inc_w_c - 1 downto 0));
end entity jointer_eig_axi4_latency;

architecture rtl of jointer_eig_axi4_latency is
  function is_pow2(n : positive) return boolean is
  begin
    return 2 ** clog2(n) = n;
  end function;

  constant use_table_c : boolean := dir_g = dir_read_c or end_g = latency_end_resp_c;

  signal now_r : unsigned(data_w_c - 1 downto 0);  -- free-running cycle counter
begin

  assert dir_g = dir_write_c or dir_g = dir_read_c
    report "jointer_eig_axi4_latency: dir_g must be dir_write_c or dir_read_c" severity failure;
  assert end_g = latency_end_last_c or (end_g = latency_end_resp_c and dir_g = dir_write_c)
    report "jointer_eig_axi4_latency: end_g must be latency_end_last_c, or latency_end_resp_c for writes"
    severity failure;
  assert addr_w_g <= 64
    report "jointer_eig_axi4_latency: addr_w_g must be 1..64" severity failure;
  assert data_w_g >= 8 and data_w_g <= 1024 and is_pow2(data_w_g)
    report "jointer_eig_axi4_latency: data_w_g must be a power of 2 in 8..1024" severity failure;
  assert id_w_g <= 16
    report "jointer_eig_axi4_latency: id_w_g must be 1..16" severity failure;
  assert max_outstanding_g <= 32
    report "jointer_eig_axi4_latency: max_outstanding_g must be 1..32" severity failure;

  cand_bytes <= std_logic_vector(to_unsigned(1, inc_w_c));

  process (clk)
  begin
    if rising_edge(clk) then
      now_r <= now_r + 1;
      if rst = '1' then
        now_r <= (others => '0');
      end if;
    end if;
  end process;

  ---------------------------------------------------------------------------
  -- Table of open transactions, searched by the closing ID (reads; writes
  -- ending at B)
  ---------------------------------------------------------------------------
  g_table : if use_table_c generate
    signal open_hs_r  : std_logic;                 -- inputs, registered once
    signal open_id_r  : std_logic_vector(id_w_g - 1 downto 0);
    signal close_hs_r : std_logic;                 -- the closing handshake
    signal close_id_r : std_logic_vector(id_w_g - 1 downto 0);
    signal hit        : std_logic;
    signal opened_at  : std_logic_vector(data_w_c - 1 downto 0);  -- now_r when it opened
    signal cand_r     : std_logic;                                -- the candidate, registered
    signal lat_r      : unsigned(data_w_c - 1 downto 0);
  begin
    -- the transaction each closing handshake ends: the oldest open one of its ID
    u_table : entity work.jointer_eig_id_table
      generic map (
        max_outstanding_g => max_outstanding_g,
        id_w_g            => id_w_g,
        pay_w_g           => data_w_c)
      port map (
        clk        => clk,
        rst        => rst,
        open_hs    => open_hs_r,
        open_id    => open_id_r,
        open_pay   => std_logic_vector(now_r),
        close_hs   => close_hs_r,
        close_id   => close_id_r,
        close_last => '1',
        hit        => hit,
        hit_pay    => opened_at);

    cand_valid(0) <= cand_r;
    cand_data     <= std_logic_vector(lat_r);

    process (clk)
    begin
      if rising_edge(clk) then
        if dir_g = dir_read_c then
          open_hs_r  <= mon_arvalid and mon_arready;
          open_id_r  <= mon_arid;
          close_hs_r <= mon_rvalid and mon_rready and mon_rlast;
          close_id_r <= mon_rid;
        else
          open_hs_r  <= mon_awvalid and mon_awready;
          open_id_r  <= mon_awid;
          close_hs_r <= mon_bvalid and mon_bready;
          close_id_r <= mon_bid;
        end if;
        cand_r <= hit;
        lat_r  <= now_r - unsigned(opened_at);        -- as measured in the closing cycle
        if rst = '1' then
          open_hs_r  <= '0';
          close_hs_r <= '0';
          cand_r     <= '0';
        end if;
      end if;
    end process;
  end generate g_table;

  ---------------------------------------------------------------------------
  -- Write ending at WLAST: AW timestamps (FIFO) against complete W bursts
  ---------------------------------------------------------------------------
  g_fifo : if not use_table_c generate
    constant n_c     : positive := max_outstanding_g;
    constant depth_c : positive := maximum(2, 2 ** clog2(n_c));
    constant ptr_w_c : positive := clog2(depth_c) + 1;  -- with a wrap bit
    constant q_w_c   : positive := clog2(n_c + 1);

    type ts_mem_t is array (0 to depth_c - 1) of unsigned(data_w_c - 1 downto 0);
    signal ts_mem  : ts_mem_t;
    signal aw_hs_r : std_logic;                    -- inputs, registered once
    signal wl_hs_r : std_logic;                    -- a WLAST beat
    signal rptr    : unsigned(ptr_w_c - 1 downto 0);
    signal wptr    : unsigned(ptr_w_c - 1 downto 0);
    signal used    : unsigned(ptr_w_c - 1 downto 0);  -- AWs waiting for their WLAST
    signal wq_r    : unsigned(q_w_c - 1 downto 0);    -- WLASTs waiting for their AW
    signal aw_wait : std_logic;
    signal w_wait  : std_logic;
    signal pop     : std_logic;
    signal push    : std_logic;
    signal fire    : std_logic;
    signal head_ts : unsigned(data_w_c - 1 downto 0);
  begin
    used    <= wptr - rptr;
    aw_wait <= to_sl(used /= 0);
    w_wait  <= to_sl(wq_r /= 0);
    -- AWs waiting: a WLAST closes the oldest (latency now - its timestamp);
    -- W bursts waiting, or an AW with its WLAST in the same cycle: latency 0
    pop     <= aw_wait and wl_hs_r;
    push    <= aw_hs_r and not w_wait and (aw_wait or not wl_hs_r)
               and (to_sl(used /= n_c) or pop);
    fire    <= pop or (not aw_wait and aw_hs_r and (w_wait or wl_hs_r));
    head_ts <= ts_mem(to_integer(rptr(ptr_w_c - 2 downto 0)));

    cand_valid(0) <= fire;
    cand_data     <= std_logic_vector(now_r - head_ts) when pop = '1' else (others => '0');

    process (clk)
    begin
      if rising_edge(clk) then
        aw_hs_r <= mon_awvalid and mon_awready;
        wl_hs_r <= mon_wvalid and mon_wready and mon_wlast;
        if push = '1' then
          ts_mem(to_integer(wptr(ptr_w_c - 2 downto 0))) <= now_r;
          wptr <= wptr + 1;
        end if;
        if pop = '1' then
          rptr <= rptr + 1;
        end if;
        -- W bursts ahead of their AW
        if aw_wait = '0' then
          if w_wait = '1' and aw_hs_r = '1' and wl_hs_r = '0' then
            wq_r <= wq_r - 1;
          elsif wl_hs_r = '1' and aw_hs_r = '0' and wq_r /= n_c then
            wq_r <= wq_r + 1;
          end if;
        end if;
        if rst = '1' then
          aw_hs_r <= '0';
          wl_hs_r <= '0';
          rptr    <= (others => '0');
          wptr    <= (others => '0');
          wq_r    <= (others => '0');
        end if;
      end if;
    end process;
  end generate g_fifo;

end architecture rtl;
