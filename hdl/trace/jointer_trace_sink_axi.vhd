-- SPDX-License-Identifier: MIT
-- jointer_trace_sink_axi: the trace sink, an AXI4 master (write channels
-- only) writing 64-bit records {timestamp, data} into a ring in memory the
-- host owns. Records wait in a FIFO: the record offered (rec_valid, which
-- comes from a filter's compare) is written at the next free slot (taken)
-- whenever the sink is ready and counted in written a cycle later, so
-- rec_valid meets only the enable of taken and two flip-flops (pend, the
-- LOST increment), not the FIFO write, the decision or the 32-bit LOST; INCR bursts of up to max_burst_g beats
-- never cross 4 KB (so never the ring end); up to 4 are in flight. A
-- 4-stage pipeline, jointer_trace_sink_decide, decides the next burst (its
-- limit: max burst, page end, free space; or the flush timeout); the sink
-- waits 4 cycles after each issue, a clear or a reset until it is current.
-- wptr: after the last record acknowledged OKAY; the sink keeps one record
-- free before rptr_in. lost: records offered while the FIFO was full (and
-- the sink taking), counted a cycle after the offer, saturating. status: bit 0 BRESP error, 1 config error, 2 busy.
-- Two processes: p_comb computes rin from the state record r, p_reg
-- registers it and writes the FIFO and the per-burst table (AWLEN, lone, wrap).
-- u_decide holds the decision (dec_*).
--   data_w_g          : 32 | 64 | 128 (memory data width)
--   fifo_depth_log2_g : log2 of the FIFO depth in records (2..12)
--   max_burst_g       : beats per burst, 2..256; its records fit the FIFO
--   flush_timeout_g   : idle cycles before a partial burst (1..65535)
--   ring_log2_g       : log2 of the largest ring in bytes (12..32)

library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;
use work.jointer_pkg.all;

entity jointer_trace_sink_axi is
  generic (
    data_w_g          : positive := 64;
    fifo_depth_log2_g : positive := 5;
    max_burst_g       : positive := 16;
    flush_timeout_g   : positive := 64;
    ring_log2_g       : positive := 32);
  port (
    clk           : in  std_logic;
    rst           : in  std_logic;
    -- records
    rec_valid     : in  std_logic;
    rec_ts        : in  std_logic_vector(31 downto 0);
    rec_data      : in  std_logic_vector(31 downto 0);
    rec_n         : in  std_logic_vector(1 downto 0) := "01";
    rec_ready     : out std_logic;
    -- registers
    ring_base     : in  std_logic_vector(31 downto 0);
    ring_size     : in  std_logic_vector(31 downto 0);
    enable        : in  std_logic;
    clear         : in  std_logic;
    rptr_in       : in  std_logic_vector(31 downto 0);
    watermark     : in  std_logic_vector(31 downto 0);
    wptr          : out std_logic_vector(31 downto 0);
    lost          : out std_logic_vector(31 downto 0);
    status        : out std_logic_vector(2 downto 0);
    irq_wm        : out std_logic;
    -- AXI4 master, write channels (one ID, 0: responses in order)
    m_axi_awid    : out std_logic_vector(0 downto 0);
    m_axi_awaddr  : out std_logic_vector(31 downto 0);
    m_axi_awlen   : out std_logic_vector(7 downto 0);
    m_axi_awsize  : out std_logic_vector(2 downto 0);
    m_axi_awburst : out std_logic_vector(1 downto 0);
    m_axi_awvalid : out std_logic;
    m_axi_awready : in  std_logic;
    m_axi_wdata   : out std_logic_vector(data_w_g - 1 downto 0);
    m_axi_wstrb   : out std_logic_vector(data_w_g / 8 - 1 downto 0);
    m_axi_wlast   : out std_logic;
    m_axi_wvalid  : out std_logic;
    m_axi_wready  : in  std_logic;
    m_axi_bid     : in  std_logic_vector(0 downto 0);
    m_axi_bresp   : in  std_logic_vector(1 downto 0);
    m_axi_bvalid  : in  std_logic;
    m_axi_bready  : out std_logic);
end entity jointer_trace_sink_axi;

architecture rtl of jointer_trace_sink_axi is
  constant f_c         : positive := fifo_depth_log2_g;
  constant depth_c     : positive := 2 ** fifo_depth_log2_g;
  constant wide_c      : boolean := data_w_g = 128;                       -- 2 records per beat
  constant rec_beats_c : positive := 2 - data_w_g / 64 + data_w_g / 128;  -- 32: 2, else 1
  constant max_recs_c  : positive := max_burst_g * (1 + data_w_g / 128) / rec_beats_c;
  constant q_log2_c    : positive := 2;                                   -- 4 bursts in flight
  constant awsize_c    : natural := 2 + data_w_g / 64;                    -- log2(bytes per beat)
  constant ow_c        : positive := ring_log2_g - 3;                     -- offset bits (records)
  constant hold_c      : positive := 4;                                   -- decision stages
  constant l_c         : natural := minimum(ring_log2_g, 31);
  subtype off_t is unsigned(ow_c - 1 downto 0);          -- a ring offset in records (page: 512)
  subtype size_t is unsigned(ow_c downto 0);             -- a ring size in records
  subtype recs_t is unsigned(9 downto 0);                -- records of a burst, 0..512
  subtype fptr_t is unsigned(f_c downto 0);              -- a FIFO pointer, with its wrap bit
  subtype bursts_n_t is unsigned(q_log2_c downto 0);     -- bursts counted modulo 8
  type fifo_t is array (0 to depth_c - 1) of std_logic_vector(63 downto 0);
  type awlen_table_t is array (0 to 2 ** q_log2_c - 1) of unsigned(7 downto 0);
  subtype flag_table_t is std_logic_vector(2 ** q_log2_c - 1 downto 0);
  constant page_mask_c : off_t := not resize(to_unsigned(511, 9), ow_c);  -- x and it: where x's 4 KB page starts
  type fifo_ptrs_t is record       -- records taken into the FIFO (written: the same, a cycle
    taken, written : fptr_t;       -- later), assigned to a burst, sent on W
    assigned, sent : fptr_t;
  end record;
  type bursts_t is record          -- bursts issued on AW, done on W, acknowledged on B
    issued, w_done, acked : bursts_n_t;
  end record;
  type aw_reg_t is record          -- the AW channel's outputs
    valid : std_logic;
    addr  : unsigned(31 downto 0);
    len   : unsigned(7 downto 0);
    size  : unsigned(2 downto 0);
  end record;
  type ring_t is record            -- where the run is in the ring; clear and rst zero it
    next_off  : off_t;             -- offset of the next burst
    wptr      : off_t;             -- offset after the last record acknowledged
    lost      : unsigned(31 downto 0);
    bresp_err : std_logic;         -- status bit 0
    clearing  : std_logic;         -- a clear waits for the bursts in flight
  end record;
  type watermark_t is record       -- fill: (wptr - rptr) mod size; armed: watermark /= 0, reachable
    fill       : off_t;
    armed, irq : std_logic;
  end record;
  type state_t is record
    ptr     : fifo_ptrs_t;
    bursts  : bursts_t;
    aw      : aw_reg_t;
    beat    : unsigned(7 downto 0);               -- W beat in the current burst
    half    : std_logic;                          -- 32 bits: the record's data half is next
    ring    : ring_t;
    cfg_err : std_logic;                          -- status bit 1
    idle    : natural range 0 to flush_timeout_g; -- cycles without a record, saturating
    hold    : natural range 0 to hold_c;          -- cycles until the decision is current
    wm      : watermark_t;
    pend     : std_logic;                         -- a record taken in the cycle before, not counted yet
    lost_add : unsigned(1 downto 0);              -- records lost in the cycle before, to add to lost
  end record;
  constant ring_reset_c : ring_t := ((others => '0'), (others => '0'), (others => '0'), '0', '0');

  -- power-up: no burst in flight, AW idle, config error until checked
  function initial return state_t is
    variable s : state_t;
  begin
    return (ptr => (others => (others => '0')), bursts => (others => (others => '0')),
            aw => ('0', (others => '0'), (others => '0'), to_unsigned(awsize_c, 3)),
            ring => ring_reset_c, cfg_err => '1', idle => 0, hold => 0, wm => s.wm,
            beat => (others => '0'), half => '0', pend => '0', lost_add => (others => '0'));
  end function;

  -- any of bits hi..lo of v set (none if lo > hi)
  function any_in(v : std_logic_vector(31 downto 0); hi, lo : natural) return std_logic is
    variable any : std_logic := '0';
  begin
    for i in lo to hi loop
      any := any or v(i);
    end loop;
    return any;
  end function;
  -- records of a burst minus 1 from its AWLEN: 32: len / 2; 64: len; 128: 2 len + 1, 0 if lone
  function recs_m1(len : unsigned(7 downto 0); lone : std_logic) return recs_t is
  begin
    if wide_c then
      return "0" & len & not lone;
    end if;
    return resize(shift_right(len, rec_beats_c - 1), 10);
  end function;
  signal r, rin      : state_t := initial;
  signal fifo        : fifo_t;
  signal burst_len   : awlen_table_t;   -- per burst in flight: AWLEN (its last W beat)
  signal burst_wrap, burst_lone : flag_table_t;  -- ends at the ring end; one 64-bit beat (128)
  signal issue_wraps : std_logic;       -- the burst issued now ends at the ring end
  signal ring_recs   : size_t;          -- ring_size in records (up to 2^ow_c)
  signal rptr_recs   : off_t;           -- rptr_in in records
  signal fifo_full, taking : std_logic; -- taking: records are taken (or counted as lost)
  signal ready       : std_logic;       -- a record offered now is accepted
  signal accept      : std_logic;       -- the FIFO takes rec_valid's record
  signal drained     : std_logic;       -- no burst in flight
  signal issue       : std_logic;       -- a burst of dec_recs records starts on AW
  signal wvalid, wlast : std_logic;
  signal lone        : std_logic;       -- the W burst is a single 64-bit beat (128)
  signal rec_out     : std_logic_vector(63 downto 0);  -- the record on W
  -- the next burst (u_decide): records, AWLEN, due, a single 64-bit beat (128);
  -- next_off is in the ring's last page
  signal dec_recs    : std_logic_vector(9 downto 0);
  signal dec_len     : std_logic_vector(7 downto 0);
  signal dec_due, dec_narrow, dec_last_page : std_logic;
begin

  assert (data_w_g = 32 or data_w_g = 64 or data_w_g = 128) and fifo_depth_log2_g >= 2
         and fifo_depth_log2_g <= 12 and max_burst_g >= 2 and max_burst_g <= 256
         and max_recs_c <= depth_c and flush_timeout_g <= 65535 and ring_log2_g >= 12 and ring_log2_g <= 32
    report "jointer_trace_sink_axi: data_w_g must be 32, 64 or 128, fifo_depth_log2_g 2..12, max_burst_g "
           & "2..256 (its records fit the FIFO), flush_timeout_g 1..65535, ring_log2_g 12..32" severity failure;

  u_decide : entity work.jointer_trace_sink_decide
    generic map (data_w_g => data_w_g, fifo_depth_log2_g => f_c, max_burst_g => max_burst_g,
                 ring_log2_g => ring_log2_g)
    port map (
      clk => clk, next_off => std_logic_vector(r.ring.next_off),
      written => std_logic_vector(r.ptr.written), assigned => std_logic_vector(r.ptr.assigned),
      timed_out => to_sl(r.idle = flush_timeout_g), rptr => std_logic_vector(rptr_recs),
      rptr_high => any_in(rptr_in, 31, ring_log2_g), size => std_logic_vector(ring_recs),
      recs => dec_recs, len => dec_len, due => dec_due, narrow => dec_narrow, last_page => dec_last_page);

  ring_recs <= resize(unsigned(ring_size(minimum(ring_log2_g, 31) downto 3)), ow_c + 1);
  rptr_recs <= unsigned(rptr_in(ring_log2_g - 1 downto 3));
  fifo_full <= to_sl(r.ptr.taken(f_c) /= r.ptr.sent(f_c)
                     and r.ptr.taken(f_c - 1 downto 0) = r.ptr.sent(f_c - 1 downto 0));
  taking    <= enable and not r.cfg_err and not r.ring.bresp_err and not r.ring.clearing;
  ready     <= taking and not fifo_full;
  accept    <= rec_valid and ready;
  drained   <= to_sl(r.bursts.acked = r.bursts.issued and r.aw.valid = '0');
  issue     <= to_sl(r.hold = 0 and r.aw.valid = '0' and r.ring.bresp_err = '0'
                     and r.bursts.issued - r.bursts.acked /= 2 ** q_log2_c
                     and r.cfg_err = '0' and r.ring.clearing = '0' and dec_due = '1');
  wvalid    <= to_sl(r.bursts.w_done /= r.bursts.issued);
  wlast     <= to_sl(r.beat = burst_len(to_integer(r.bursts.w_done(q_log2_c - 1 downto 0))));
  lone      <= burst_lone(to_integer(r.bursts.w_done(q_log2_c - 1 downto 0)));
  rec_out   <= fifo(to_integer(r.ptr.sent(f_c - 1 downto 0)));

  p_comb : process (all)
    variable v         : state_t;
    variable d, burst_end : size_t;              -- burst_end: next_off + recs
    variable page_29   : unsigned(28 downto 0);  -- next_off, 29 bits
    variable lost_sum  : unsigned(32 downto 0);
    variable b_slot    : natural range 0 to 2 ** q_log2_c - 1;
  begin
    v := r;
    v.cfg_err := to_sl(ring_base(11 downto 0) /= x"000" or ring_size(11 downto 0) /= x"000"
                       or unsigned(ring_size(31 downto 12)) = 0
                       or (ring_log2_g < 32 and (any_in(ring_size, 31, l_c + 1)
                                                 or (ring_size(l_c) and any_in(ring_size, l_c - 1, 12))) = '1'));
    -- FIFO write, idle time, lost records: the records offered to a full
    -- FIFO add to lost a cycle later (saturating: a carry comes from lost >= 2^32 - 3)
    v.lost_add := (others => '0');
    if (rec_valid and fifo_full and taking) = '1' then
      v.lost_add := unsigned(rec_n);
    end if;
    lost_sum := ("0" & r.ring.lost) + r.lost_add;
    v.ring.lost := lost_sum(31 downto 0);
    if lost_sum(32) = '1' then     -- then bits 31..2 are ones already
      v.ring.lost := r.ring.lost(31 downto 2) & "11";
    end if;
    v.pend        := accept;
    v.ptr.written := r.ptr.taken;
    if accept = '1' then
      v.ptr.taken := r.ptr.taken + 1;
    end if;
    if r.pend = '1' then
      v.idle := 0;
    elsif r.idle /= flush_timeout_g then
      v.idle := r.idle + 1;
    end if;
    v.hold := maximum(r.hold - 1, 0);
    -- AW; a burst never crosses a page, and the page end in the last page is the ring end
    v.aw.valid  := r.aw.valid and not m_axi_awready;
    page_29     := resize(r.ring.next_off, 29);
    burst_end   := ("0" & r.ring.next_off) + unsigned(dec_recs);
    issue_wraps <= dec_last_page and (burst_end(9) xor page_29(9));
    if issue = '1' then
      v.aw            := ('1', (unsigned(ring_base(31 downto 12)) + page_29(28 downto 9))
                               & r.ring.next_off(8 downto 0) & "000", unsigned(dec_len),
                          to_unsigned(awsize_c, 3));
      if wide_c and dec_narrow = '1' then
        v.aw.size := to_unsigned(3, 3);
      end if;
      v.hold          := hold_c;
      v.bursts.issued := r.bursts.issued + 1;
      v.ptr.assigned  := r.ptr.assigned + resize(unsigned(dec_recs), f_c + 1);
      v.ring.next_off := burst_end(ow_c - 1 downto 0) and not (ow_c - 1 downto 0 => issue_wraps);
    end if;
    -- W: one record per beat (64), two beats per record (32), two records per beat (128)
    if wvalid = '1' and m_axi_wready = '1' then
      if data_w_g = 32 and r.half = '0' then
        v.half := '1';
      elsif wide_c and lone = '0' then
        v.ptr.sent := r.ptr.sent + 2;
      else
        v.half     := '0';
        v.ptr.sent := r.ptr.sent + 1;
      end if;
      v.beat := (r.beat + 1) and not (7 downto 0 => wlast);
      if wlast = '1' then
        v.bursts.w_done := r.bursts.w_done + 1;
      end if;
    end if;
    -- B, in order: an OKAY moves wptr past the burst's records
    b_slot := to_integer(r.bursts.acked(q_log2_c - 1 downto 0));
    if m_axi_bvalid = '1' and r.bursts.acked /= r.bursts.issued then
      v.bursts.acked := r.bursts.acked + 1;
      if m_axi_bresp /= "00" then
        v.ring.bresp_err := '1';
      elsif r.ring.bresp_err = '0' and burst_wrap(b_slot) = '1' then
        v.ring.wptr := (others => '0');
      elsif r.ring.bresp_err = '0' then
        v.ring.wptr := resize(r.ring.wptr + recs_m1(burst_len(b_slot), burst_lone(b_slot)) + 1, ow_c);
      end if;
    end if;
    -- watermark: fill (two cycles of lag) x 8 >= watermark, armed: not 0 and reachable
    d := ("0" & r.ring.wptr) - ("0" & rptr_recs);
    if d(ow_c) = '1' then
      d := d + (ring_recs and ("1" & page_mask_c));
    end if;
    v.wm.fill  := d(ow_c - 1 downto 0);
    v.wm.armed := to_sl(unsigned(watermark(ring_log2_g - 1 downto 0)) /= 0)
                  and not any_in(watermark, 31, ring_log2_g);
    v.wm.irq := r.wm.armed and to_sl(r.wm.fill & "000" >= unsigned(watermark(ring_log2_g - 1 downto 0)));
    -- clear: once nothing is in flight, restart at offset 0
    v.ring.clearing := r.ring.clearing or clear;
    if r.ring.clearing = '1' and drained = '1' then
      v.ring := ring_reset_c;
      v.ptr  := (others => (others => '0'));
      v.pend := '0';
      v.half := '0';
      v.hold := hold_c;
    end if;
    rin <= v;
  end process;

  -- rst resets the control state, not the decision data nor the AW payload
  p_reg : process (clk)
    variable aw_slot : natural range 0 to 2 ** q_log2_c - 1;
  begin
    if rising_edge(clk) then
      if ready = '1' then   -- the offer, if any, at the free slot: counted next cycle with pend
        fifo(to_integer(r.ptr.taken(f_c - 1 downto 0))) <= rec_data & rec_ts;  -- as on the bus
      end if;
      aw_slot := to_integer(r.bursts.issued(q_log2_c - 1 downto 0));
      if issue = '1' then
        burst_len(aw_slot)  <= unsigned(dec_len);
        burst_lone(aw_slot) <= dec_narrow;
        burst_wrap(aw_slot) <= issue_wraps;
      end if;
      r <= rin;
      if rst = '1' then
        r.ptr      <= (others => (others => '0'));
        r.bursts   <= (others => (others => '0'));
        r.aw.valid <= '0';
        r.beat     <= (others => '0');
        r.half     <= '0';
        r.ring     <= ring_reset_c;
        r.idle     <= 0;
        r.hold     <= hold_c;
        r.wm.irq   <= '0';
        r.pend     <= '0';
        r.lost_add <= (others => '0');
      end if;
    end if;
  end process;

  -- W data: the record (64), its halves (32: ts first), records 2k and 2k + 1 (128)
  g_w64 : if data_w_g = 64 generate
    m_axi_wdata <= rec_out;
    m_axi_wstrb <= (others => '1');
  end generate;
  g_w128 : if wide_c generate
    m_axi_wdata <= rec_out & rec_out when lone = '1' else fifo(to_integer(r.ptr.sent(f_c - 1 downto 0) + 1)) & rec_out;
    m_axi_wstrb <= x"FFFF" when lone = '0' else x"FF00" when r.ptr.sent(0) = '1' else x"00FF";
  end generate;
  g_w32 : if data_w_g = 32 generate
    m_axi_wdata <= rec_out(31 downto 0) when r.half = '0' else rec_out(63 downto 32);
    m_axi_wstrb <= (others => '1');
  end generate;

  wptr          <= std_logic_vector(resize(r.ring.wptr, 29)) & "000";
  lost          <= std_logic_vector(r.ring.lost);
  status        <= not drained & r.cfg_err & r.ring.bresp_err;
  irq_wm        <= r.wm.irq;
  rec_ready     <= ready;
  m_axi_awid    <= "0";
  m_axi_awaddr  <= std_logic_vector(r.aw.addr);
  m_axi_awlen   <= std_logic_vector(r.aw.len);
  m_axi_awsize  <= std_logic_vector(r.aw.size);
  m_axi_awburst <= "01";
  m_axi_awvalid <= r.aw.valid;
  m_axi_wlast   <= wlast;
  m_axi_wvalid  <= wvalid;
  m_axi_bready  <= '1';

end architecture rtl;
