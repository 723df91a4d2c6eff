-- jointer_trace_sink_axi: the trace sink (lossless capture into
-- DRAM). An AXI4 master (write channels only) that writes 64-bit trace
-- records {timestamp, data} (timestamp at the lower address) into a ring in
-- memory the host owns, so a trace is no longer limited by BRAM and by two
-- AXI4-Lite reads per record.
-- Records: rec_valid (one per cycle possible) with rec_ts, rec_data enter a
-- FIFO of 2^fifo_depth_log2_g records. Bursts of up to max_burst_g beats
-- (INCR, AWSIZE = log2(data bytes), WSTRB all ones) take them to memory.
-- 128 bits: a beat carries records 2k, 2k+1; a record alone (a flush of an
-- odd count, or an odd offset) goes in a single 64-bit beat (AWLEN 0,
-- AWSIZE 3, WSTRB of its half of the bus), which realigns the next burst.
-- Ring: ring_base (byte address, 4 KB aligned), ring_size (bytes, a non-zero
-- multiple of 4 KB, at most 2^ring_log2_g); offsets are bytes from ring_base
-- (the sink computes them on ring_log2_g - 3 bits: pay only for the ring
-- size the design needs; wptr stays a 32-bit byte offset). Because the ring end
-- is a 4 KB boundary, a burst that never crosses 4 KB never passes the ring
-- end either: the issue offset wraps to 0 exactly at ring_size.
--   wptr    : offset of the next record written and acknowledged (BRESP
--             OKAY); the host may read [rptr_in, wptr) (modulo ring_size)
--   rptr_in : the host's read offset (low 3 bits ignored). The sink keeps one
--             record free (wptr = rptr is empty), so it never writes a byte
--             in [rptr_in, rptr_in + 8) and holds at most size/8 - 1 records.
--             rptr_in >= ring_size: no space (nothing is written).
--             A new rptr_in takes up to 3 cycles to free space (registered).
--   lost    : records dropped because the FIFO was full (it fills when the
--             ring is full or memory is slow), exact, saturating at 2^32-1
--   status  : bit 0 error (a BRESP other than OKAY: no new burst is issued
--             and wptr freezes until clear; bursts already issued complete),
--             bit 1 config_error (ring_base not 4 KB aligned or ring_size
--             zero, not a multiple of 4 KB or above 2^ring_log2_g: nothing
--             is accepted or written; registered: one cycle after the
--             configuration), bit 2 busy (a burst is issued and not
--             acknowledged)
--   irq_wm  : level, (wptr - rptr_in) mod ring_size >= watermark (bytes);
--             watermark 0 = off; two cycles after wptr, rptr_in or watermark
--             changes
-- Records are accepted while enable = 1, status bits 0..1 are 0 and no clear
-- is pending; records offered otherwise are ignored (not counted in lost).
-- rec_ready = 1: a record offered this cycle is accepted (enable, no error,
-- no config error, no clear pending, FIFO not full); it does not depend on
-- rec_valid. rec_n: records in the offered unit (1..3; a compact unit of
-- jointer_trace_compact carries up to 3, a raw record is "01"); lost adds
-- rec_n when an offered unit is dropped because the FIFO is full.
-- A burst is issued when the records not yet issued reach the burst the
-- limits allow (max_burst_g, the 4 KB page, the free ring space, the FIFO
-- depth), or when some are waiting and no record has arrived for
-- flush_timeout_g cycles (a partial burst: a trickle still reaches memory).
-- The decision is a 3-stage register pipeline (short paths: 4 LUT levels);
-- after an issue (and a clear, rst) no burst is decided for 3 cycles, so an
-- AW starts at most every 4 cycles (a burst of 16 beats takes 16 on W).
-- Up to 4 bursts are outstanding (AW issued, B not yet received); W beats
-- follow AW order and may lead their AW handshake; BREADY is always 1.
-- clear (pulse): stops issuing, waits for the outstanding bursts to end, then
-- restarts at offset 0 with lost 0, error 0 and an empty FIFO. rst does the
-- same at once (the AXI slave must be reset with it: a burst is cut).
-- The ring configuration must not change while enable = 1 or bursts are out.
--   data_w_g          : 32 | 64 | 128 (memory data width; 32: 2 beats per
--                       record, 128: 2 records per beat)
--   fifo_depth_log2_g : log2 of the FIFO depth in records (2..12)
--   max_burst_g       : beats per burst, 2..256; records per burst
--                       (max_burst_g x data_w_g / 64) <= the FIFO depth
--   flush_timeout_g   : idle cycles before a partial burst (1..65535)
--   ring_log2_g       : log2 of the largest ring in bytes (12..32; the
--                       generator derives it from YAML sink: {ring_bytes})

library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;

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
  constant f_c          : positive := fifo_depth_log2_g;
  constant depth_c      : positive := 2 ** fifo_depth_log2_g;
  constant wide_c       : boolean := data_w_g = 128;          -- 2 records per beat
  constant rec_beats_c  : positive := 2 - data_w_g / 64 + data_w_g / 128;  -- 32: 2, else 1
  constant max_recs_c   : positive := max_burst_g * (1 + data_w_g / 128) / rec_beats_c;
  constant q_log2_c     : positive := 2;                       -- 4 outstanding
  constant awsize_c     : natural := 2 + data_w_g / 64;        -- 32: 2, 64: 3
  constant ow_c         : positive := ring_log2_g - 3;         -- offset bits (records)
  constant hold_c       : positive := 3;                       -- decision pipeline stages
  constant cw_c         : positive := maximum(f_c + 1, 10);    -- waiting vs limit compare

  type fifo_t is array (0 to depth_c - 1) of std_logic_vector(63 downto 0);
  subtype off_t is unsigned(ow_c - 1 downto 0);                -- a ring offset in records
  subtype cnt_t is unsigned(9 downto 0);                       -- records of a burst, 0..512
  type len_q_t is array (0 to 2 ** q_log2_c - 1) of unsigned(7 downto 0);

  -- (x and pg_mask_c): x without its offset inside the 4 KB page (512 records)
  constant pg_mask_c : off_t := not resize(to_unsigned(511, 9), ow_c);

  -- any of bits 31..lo of v set (lo = 32: none)
  function any_from(v : std_logic_vector(31 downto 0); lo : natural) return std_logic is
  begin
    for i in 31 downto lo loop
      if v(i) = '1' then
        return '1';
      end if;
    end loop;
    return '0';
  end function;

  -- ring_size > 2^ring_log2_g (the largest ring this sink can address)
  function too_big(v : std_logic_vector(31 downto 0)) return std_logic is
    constant l_c : natural := ring_log2_g mod 32;  -- used only below 32
  begin
    if ring_log2_g < 32 then
      if any_from(v, l_c + 1) = '1' then
        return '1';
      end if;
      if v(l_c) = '1' then
        for i in l_c - 1 downto 12 loop
          if v(i) = '1' then
            return '1';
          end if;
        end loop;
      end if;
    end if;
    return '0';
  end function;

  -- ring_size in records, ring_log2_g - 2 bits (a ring of exactly 2^ring_log2_g fits)
  function ring_recs(v : std_logic_vector(31 downto 0)) return unsigned is
    variable r : unsigned(ring_log2_g - 3 downto 0) := (others => '0');
  begin
    for i in 0 to ring_log2_g - 3 loop
      if i + 3 <= 31 then
        r(i) := v(i + 3);
      end if;
    end loop;
    return r;
  end function;

  -- records of a burst minus 1 from its AWLEN (and 128: narrow)
  function recs_m1(len : unsigned(7 downto 0); lone : std_logic) return cnt_t is
  begin
    if data_w_g = 32 then
      return resize(len(7 downto 1), 10);
    elsif data_w_g = 64 then
      return resize(len, 10);
    end if;
    return "0" & len & not lone;  -- 2 len + 1, 0 for a narrow beat (len 0)
  end function;

  function min(a, b : unsigned) return unsigned is
  begin
    if a < b then
      return a;
    end if;
    return b;
  end function;

  signal fifo     : fifo_t;
  signal wr_ptr   : unsigned(f_c downto 0);  -- records written into the FIFO
  signal asg_ptr  : unsigned(f_c downto 0);  -- records assigned to a burst
  signal rd_ptr   : unsigned(f_c downto 0);  -- records sent on W
  -- bursts in flight (AW issued, B not received), indexed by aw_i / w_i / b_i
  signal q_len    : len_q_t;                 -- AWLEN (last W beat)
  signal q_wrap   : std_logic_vector(2 ** q_log2_c - 1 downto 0);  -- ends at the ring end
  signal q_lone   : std_logic_vector(2 ** q_log2_c - 1 downto 0);  -- 128: one 64-bit beat
  signal aw_i     : unsigned(q_log2_c downto 0) := (others => '0');  -- bursts issued
  signal w_i      : unsigned(q_log2_c downto 0) := (others => '0');  -- bursts whose W is done
  signal b_i      : unsigned(q_log2_c downto 0) := (others => '0');  -- bursts acknowledged
  signal beat     : unsigned(7 downto 0);    -- W beat in the current burst
  signal half     : std_logic;               -- 32-bit: data half of the record
  -- offsets in records (bytes / 8), ring_log2_g - 3 bits; a page (4 KB) is 512 records
  signal wiss     : off_t;                   -- offset of the next burst
  signal wptr_r   : off_t;
  signal size_r   : unsigned(ow_c downto 0); -- ring_size in records (up to 2^ow_c)
  signal rptr_r   : off_t;                   -- rptr_in in records
  signal rptr_hi  : std_logic;               -- rptr_in has bits at or above ring_log2_g
  signal lost_r   : unsigned(31 downto 0);
  signal err_r    : std_logic;
  signal clr_pend : std_logic;
  signal cfg_q    : std_logic := '1';               -- config error (registered)
  signal idle_cnt : natural range 0 to flush_timeout_g;  -- cycles without a new record (saturating)
  signal awvalid_r : std_logic := '0';  -- initial values: no X on the bus before rst
  signal awaddr_r : unsigned(31 downto 0);
  signal awlen_r  : unsigned(7 downto 0);
  signal awsize_r : unsigned(2 downto 0) := to_unsigned(awsize_c, 3);
  signal irq_r    : std_logic;
  signal fill_q   : off_t;                   -- (wptr - rptr) mod size (registered)
  signal wm_on_q  : std_logic;               -- the watermark is on and reachable (registered)
  -- the decision pipeline (see p_decide); hold: cycles until its values are current
  signal hold     : natural range 0 to hold_c;
  signal x_q      : off_t;                   -- stage 1: free records (rptr - wiss - 1) mod size
  signal rbad_q   : std_logic;               -- stage 1: rptr_in >= ring_size
  signal pm_q     : cnt_t;                   -- stage 1: min(max burst, to the page end)
  signal wait_q   : unsigned(f_c downto 0);  -- stage 1: records not yet assigned
  signal last_q   : std_logic;               -- stage 1: wiss is in the ring's last page
  signal idle_q   : std_logic;               -- stage 1: flush timeout reached
  signal lim_q    : cnt_t;                   -- stage 2: min(pm, free ring space)
  signal n_q      : cnt_t;                   -- stage 3: records of the next burst
  signal go_q     : std_logic;               -- stage 3: a burst is due
  signal narrow_q : std_logic;               -- stage 3: 128: a single 64-bit beat
  signal len_q    : unsigned(7 downto 0);    -- stage 3: its AWLEN

  signal ready    : std_logic;   -- a record offered now is accepted
  signal accept   : std_logic;   -- the FIFO takes rec_valid's record
  signal fifo_full : std_logic;
  signal issue    : std_logic;   -- a burst of n_q records starts on AW
  signal wvalid   : std_logic;
  signal wlast    : std_logic;
  signal lone     : std_logic;   -- the W burst is a narrow one (128)
  signal rec_out  : std_logic_vector(63 downto 0);
  signal drained  : std_logic;   -- nothing issued and not acknowledged
begin

  assert data_w_g = 32 or data_w_g = 64 or data_w_g = 128
    report "jointer_trace_sink_axi: data_w_g must be 32, 64 or 128" severity failure;
  assert fifo_depth_log2_g >= 2 and fifo_depth_log2_g <= 12
    report "jointer_trace_sink_axi: fifo_depth_log2_g must be 2..12" severity failure;
  assert max_burst_g >= 2 and max_burst_g <= 256 and max_recs_c <= depth_c
    report "jointer_trace_sink_axi: max_burst_g must be 2..256 and its records fit the FIFO"
    severity failure;
  assert flush_timeout_g <= 65535
    report "jointer_trace_sink_axi: flush_timeout_g must be 1..65535" severity failure;
  assert ring_log2_g >= 12 and ring_log2_g <= 32
    report "jointer_trace_sink_axi: ring_log2_g must be 12..32" severity failure;

  fifo_full <= '1' when wr_ptr(f_c) /= rd_ptr(f_c)
                        and wr_ptr(f_c - 1 downto 0) = rd_ptr(f_c - 1 downto 0) else '0';
  ready     <= enable and not cfg_q and not err_r and not clr_pend and not fifo_full;
  accept    <= rec_valid and ready;
  size_r    <= ring_recs(ring_size);
  rptr_r    <= unsigned(rptr_in(ring_log2_g - 1 downto 3));
  rptr_hi   <= any_from(rptr_in, ring_log2_g);
  drained   <= '1' when b_i = aw_i and awvalid_r = '0' else '0';

  -- The next burst: n = min(waiting, limit), limit = min(max burst, to the
  -- 4 KB page end, free ring space); due when waiting >= limit or after the
  -- flush timeout. Three register stages compute it (short paths); they read
  -- wiss, asg_ptr and wr_ptr, rptr_in. wiss and asg_ptr change only with an
  -- issue (and clear, rst), after which no burst is decided for hold_c
  -- cycles, so n_q is current when used; wr_ptr and rptr lag, which only
  -- means fewer waiting records or less free space than there are.
  p_decide : process (clk)
    variable d    : unsigned(ow_c downto 0);
    variable n    : cnt_t;
    variable go   : boolean;
    variable lt   : boolean;
  begin
    if rising_edge(clk) then
      -- stage 1
      -- free records x = (rptr - wiss - 1) mod size (one record is kept free)
      d := ("0" & rptr_r) + ("0" & not wiss);  -- rptr - wiss - 1; d(ow_c) = 0: rptr <= wiss
      if d(ow_c) = '0' then
        d := d + (size_r and ("1" & pg_mask_c));
      end if;
      x_q    <= d(ow_c - 1 downto 0);
      -- (both multiples of a page: comparing page numbers is enough)
      rbad_q <= '1' when rptr_hi = '1' or ("0" & (rptr_r and pg_mask_c)) >= (size_r and ("1" & pg_mask_c)) else '0';
      pm_q   <= min(to_unsigned(max_recs_c, 10), to_unsigned(512, 10) - resize(wiss(8 downto 0), 10));
      wait_q <= wr_ptr - asg_ptr;
      last_q <= '1' when ("0" & (wiss and pg_mask_c)) + 512 = size_r else '0';
      idle_q <= '1' when idle_cnt = flush_timeout_g else '0';
      -- stage 2: the limit min(pm, x) (pm <= 512)
      if rbad_q = '1' then
        lim_q <= (others => '0');
      elsif (x_q and pg_mask_c) /= 0 then
        lim_q <= pm_q;
      else
        lim_q <= min(pm_q, resize(x_q(8 downto 0), 10));
      end if;
      -- stage 3
      lt := resize(wait_q, cw_c) < resize(lim_q, cw_c);
      if lt then
        n := resize(wait_q, 10);
      else
        n := lim_q;
      end if;
      go := not lt or idle_q = '1';
      n_q      <= n;
      len_q    <= resize(n * rec_beats_c - 1, 8);
      narrow_q <= '0';
      -- 128 bits: full beats carry records 2k, 2k+1; an odd offset or a lone
      -- record is written alone with a 64-bit beat on its half of the bus
      if wide_c then
        if wiss(0) = '1' or n = 1 then
          narrow_q <= '1';
          n_q      <= to_unsigned(1, 10);
          len_q    <= (others => '0');
          go       := go or wiss(0) = '1';
        else
          n_q   <= n(9 downto 1) & "0";
          len_q <= resize(shift_right(n, 1) - 1, 8);
        end if;
      end if;
      go_q <= '1' when go and wait_q /= 0 and lim_q /= 0 else '0';  -- n /= 0
    end if;
  end process;

  issue <= '1' when hold = 0 and awvalid_r = '0' and aw_i - b_i /= 2 ** q_log2_c and err_r = '0'
                    and cfg_q = '0' and clr_pend = '0' and go_q = '1' else '0';

  -- W: the records of burst w_i, one record per beat (64) or two beats (32)
  wvalid  <= '1' when w_i /= aw_i else '0';
  rec_out <= fifo(to_integer(rd_ptr(f_c - 1 downto 0)));
  wlast   <= '1' when beat = q_len(to_integer(w_i(q_log2_c - 1 downto 0))) else '0';
  lone    <= q_lone(to_integer(w_i(q_log2_c - 1 downto 0)));

  g_w64 : if data_w_g = 64 generate
    m_axi_wdata <= rec_out(31 downto 0) & rec_out(63 downto 32);  -- data & ts
    m_axi_wstrb <= (others => '1');
  end generate;
  g_w128 : if wide_c generate
    signal rec_out2 : std_logic_vector(63 downto 0);  -- the record after rec_out
  begin
    rec_out2 <= fifo(to_integer(rd_ptr(f_c - 1 downto 0) + 1));
    m_axi_wdata <= rec_out(31 downto 0) & rec_out(63 downto 32) & rec_out(31 downto 0) & rec_out(63 downto 32)
                   when lone = '1' else
                   rec_out2(31 downto 0) & rec_out2(63 downto 32) & rec_out(31 downto 0) & rec_out(63 downto 32);
    m_axi_wstrb <= x"FFFF" when lone = '0' else x"FF00" when rd_ptr(0) = '1' else x"00FF";
  end generate;
  g_w32 : if data_w_g = 32 generate
    m_axi_wdata <= rec_out(63 downto 32) when half = '0' else rec_out(31 downto 0);
    m_axi_wstrb <= (others => '1');
  end generate;

  process (clk)
    variable wbeat  : boolean;
    variable wm_d   : unsigned(ow_c downto 0);
    variable wm_c   : unsigned(ow_c downto 0);
    variable lost_s : unsigned(32 downto 0);
    variable s      : unsigned(ow_c downto 0);
    variable wpg    : unsigned(28 downto 0);
    variable bq     : natural range 0 to 2 ** q_log2_c - 1;
  begin
    if rising_edge(clk) then
      cfg_q <= '0';
      if ring_base(11 downto 0) /= x"000" or ring_size(11 downto 0) /= x"000"
         or unsigned(ring_size(31 downto 12)) = 0 or too_big(ring_size) = '1' then
        cfg_q <= '1';
      end if;
      -- FIFO write
      if accept = '1' then
        fifo(to_integer(wr_ptr(f_c - 1 downto 0))) <= rec_ts & rec_data;
        wr_ptr <= wr_ptr + 1;
      end if;
      lost_s := ("0" & lost_r) + unsigned(rec_n);
      if rec_valid = '1' and fifo_full = '1' and enable = '1'
         and cfg_q = '0' and err_r = '0' and clr_pend = '0' then
        -- saturating: an overflow (rec_n <= 3) comes from LOST >= 2^32 - 3,
        -- whose bits 31..2 are already ones: only bits 1..0 are set
        if lost_s(32) = '1' then
          lost_r(1 downto 0) <= "11";
        else
          lost_r <= lost_s(31 downto 0);
        end if;
      end if;
      if accept = '1' then
        idle_cnt <= 0;
      elsif idle_cnt /= flush_timeout_g then
        idle_cnt <= idle_cnt + 1;
      end if;
      if hold /= 0 then
        hold <= hold - 1;
      end if;
      -- AW
      if awvalid_r = '1' and m_axi_awready = '1' then
        awvalid_r <= '0';
      end if;
      if issue = '1' then
        hold      <= hold_c;
        awvalid_r <= '1';
        wpg       := resize(wiss, 29);
        awaddr_r  <= (unsigned(ring_base(31 downto 12)) + wpg(28 downto 9)) & wiss(8 downto 0) & "000";
        awlen_r   <= len_q;
        awsize_r  <= to_unsigned(awsize_c, 3);
        if wide_c and narrow_q = '1' then
          awsize_r <= to_unsigned(3, 3);
        end if;
        -- the burst never crosses the page end; reaching it in the last page is the ring end
        s  := ("0" & wiss) + n_q;
        q_len(to_integer(aw_i(q_log2_c - 1 downto 0)))  <= len_q;
        q_lone(to_integer(aw_i(q_log2_c - 1 downto 0))) <= narrow_q;
        q_wrap(to_integer(aw_i(q_log2_c - 1 downto 0))) <= '0';
        aw_i      <= aw_i + 1;
        asg_ptr   <= asg_ptr + resize(n_q, f_c + 1);
        wiss      <= s(ow_c - 1 downto 0);
        if last_q = '1' and s(9) /= wiss(9) then  -- a carry into bit 9: the page end
          wiss <= (others => '0');
          q_wrap(to_integer(aw_i(q_log2_c - 1 downto 0))) <= '1';
        end if;
      end if;
      -- W
      wbeat := wvalid = '1' and m_axi_wready = '1';
      if wbeat then
        if data_w_g = 32 and half = '0' then
          half <= '1';
        elsif wide_c and lone = '0' then
          rd_ptr <= rd_ptr + 2;
        else
          half   <= '0';
          rd_ptr <= rd_ptr + 1;
        end if;
        if wlast = '1' then
          beat <= (others => '0');
          w_i  <= w_i + 1;
        else
          beat <= beat + 1;
        end if;
      end if;
      -- B
      bq := to_integer(b_i(q_log2_c - 1 downto 0));
      if m_axi_bvalid = '1' and b_i /= aw_i then
        b_i <= b_i + 1;
        if m_axi_bresp /= "00" then
          err_r <= '1';
        elsif err_r = '0' then
          if q_wrap(bq) = '1' then
            wptr_r <= (others => '0');
          else
            wptr_r <= resize(wptr_r + recs_m1(q_len(bq), q_lone(bq)) + 1, ow_c);
          end if;
        end if;
      end if;
      -- watermark: (wptr - rptr) mod size >= watermark (bytes); two cycles of lag
      wm_d := ("0" & wptr_r) - ("0" & rptr_r);
      if wm_d(ow_c) = '1' then
        wm_d := wm_d + (size_r and ("1" & pg_mask_c));
      end if;
      fill_q <= wm_d(ow_c - 1 downto 0);
      wm_on_q <= '0';
      if unsigned(watermark(ring_log2_g - 1 downto 0)) /= 0 and any_from(watermark, ring_log2_g) = '0' then
        wm_on_q <= '1';  -- not 0 and below 2^ring_log2_g (else fill never reaches it)
      end if;
      -- fill x 8 >= watermark: fill >= watermark / 8 rounded up, as the carry
      -- out of fill + not (watermark / 8) (+ 1 when watermark is a multiple of 8)
      wm_c := ("0" & fill_q) + ("0" & not unsigned(watermark(ring_log2_g - 1 downto 3)));
      if watermark(2 downto 0) = "000" then
        wm_c := wm_c + 1;
      end if;
      if wm_on_q = '1' and wm_c(ow_c) = '1' then
        irq_r <= '1';
      else
        irq_r <= '0';
      end if;
      -- clear: once nothing is in flight, restart at offset 0
      if clear = '1' then
        clr_pend <= '1';
      end if;
      if clr_pend = '1' and drained = '1' then
        clr_pend <= '0';
        wr_ptr   <= (others => '0');
        asg_ptr  <= (others => '0');
        rd_ptr   <= (others => '0');
        wiss     <= (others => '0');
        wptr_r   <= (others => '0');
        lost_r   <= (others => '0');
        err_r    <= '0';
        half     <= '0';
        hold     <= hold_c;
      end if;
      if rst = '1' then
        wr_ptr    <= (others => '0');
        asg_ptr   <= (others => '0');
        rd_ptr    <= (others => '0');
        aw_i      <= (others => '0');
        w_i       <= (others => '0');
        b_i       <= (others => '0');
        beat      <= (others => '0');
        half      <= '0';
        wiss      <= (others => '0');
        wptr_r    <= (others => '0');
        lost_r    <= (others => '0');
        err_r     <= '0';
        clr_pend  <= '0';
        idle_cnt  <= 0;
        awvalid_r <= '0';
        irq_r     <= '0';
        hold      <= hold_c;
      end if;
    end if;
  end process;

  wptr          <= std_logic_vector(resize(wptr_r, 29)) & "000";
  lost          <= std_logic_vector(lost_r);
  status        <= not drained & cfg_q & err_r;
  irq_wm        <= irq_r;
  rec_ready     <= ready;
  m_axi_awid    <= "0";
  m_axi_awaddr  <= std_logic_vector(awaddr_r);
  m_axi_awlen   <= std_logic_vector(awlen_r);
  m_axi_awsize  <= std_logic_vector(awsize_r);
  m_axi_awburst <= "01";
  m_axi_awvalid <= awvalid_r;
  m_axi_wlast   <= wlast;
  m_axi_wvalid  <= wvalid;
  m_axi_bready  <= '1';

end architecture rtl;
