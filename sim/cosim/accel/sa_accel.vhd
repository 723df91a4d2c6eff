-- SPDX-License-Identifier: MIT
-- sa_accel: the Selective Accumulations coprocessor of the TECS paper
-- (section 4.2, fig. 11), the IP that `make demo` monitors. Demo IP observed by
-- jointer, not part of the library.
--
-- The host loads LENGTH signed 32-bit inputs into memory at IN_BASE, sets
-- OUT_BASE and writes CTRL.START. The coprocessor then
--   1. streams the inputs in through its AXI4 read master (bursts of <= 256),
--   2. `forward` sends each input x to mac_16 #0 if x > 5, #1 if 0 <= x <= 4,
--      #2 if x < 0 (x = 5 goes nowhere, as in the paper),
--   3. each mac_16 multiplies by its constant (3, 5, 7) and emits the sum of
--      every 16 products,
--   4. writes the results of actor k with one INCR burst (size 4 bytes) to
--      OUT_BASE + k * 0x1000 through its AXI4 write master, k = 0, 1, 2,
--      skipping actors without results, and waits for each write response.
-- Observable strobes for the monitor: task_start / task_done (task level),
-- ev_forward (one per input consumed by forward) and ev_mac (one per token
-- entering any mac_16) at operation level; the AXI4 master at transaction
-- level.
--
-- Control slave (AXI4-Lite, byte addresses):
--   0x00 CTRL     w: bit 0 START (ignored while busy)
--   0x04 STATUS   r: bit 0 BUSY, bit 1 DONE (set at the end, cleared by START)
--   0x08 LENGTH   rw: inputs, 0..1024 (larger values act as 1024)
--   0x0C IN_BASE  rw: byte address of the inputs
--   0x10 OUT_BASE rw: byte address of the results
--   0x14 CYCLES   r: clock cycles from the task_start pulse to the task_done pulse
--   0x18 RESULTS  r: results written (all actors)
--   0x4000..0x7FFF: the data memory (sa_mem), word access
-- Timing is fully deterministic with sa_mem (see sim/cosim/accel/README.md).

library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;

entity sa_accel is
  port (
    clk           : in  std_logic;
    rst           : in  std_logic;
    -- control slave
    s_axi_awaddr  : in  std_logic_vector(14 downto 0);
    s_axi_awprot  : in  std_logic_vector(2 downto 0);
    s_axi_awvalid : in  std_logic;
    s_axi_awready : out std_logic;
    s_axi_wdata   : in  std_logic_vector(31 downto 0);
    s_axi_wstrb   : in  std_logic_vector(3 downto 0);
    s_axi_wvalid  : in  std_logic;
    s_axi_wready  : out std_logic;
    s_axi_bresp   : out std_logic_vector(1 downto 0);
    s_axi_bvalid  : out std_logic;
    s_axi_bready  : in  std_logic;
    s_axi_araddr  : in  std_logic_vector(14 downto 0);
    s_axi_arprot  : in  std_logic_vector(2 downto 0);
    s_axi_arvalid : in  std_logic;
    s_axi_arready : out std_logic;
    s_axi_rdata   : out std_logic_vector(31 downto 0);
    s_axi_rresp   : out std_logic_vector(1 downto 0);
    s_axi_rvalid  : out std_logic;
    s_axi_rready  : in  std_logic;
    -- host port of the data memory
    mh_req        : out std_logic;
    mh_we         : out std_logic;
    mh_addr       : out std_logic_vector(11 downto 0);
    mh_wdata      : out std_logic_vector(31 downto 0);
    mh_ack        : in  std_logic;
    mh_rdata      : in  std_logic_vector(31 downto 0);
    -- AXI4 master (ID 0, 32-bit data)
    m_axi_awaddr  : out std_logic_vector(31 downto 0);
    m_axi_awlen   : out std_logic_vector(7 downto 0);
    m_axi_awsize  : out std_logic_vector(2 downto 0);
    m_axi_awburst : out std_logic_vector(1 downto 0);
    m_axi_awvalid : out std_logic;
    m_axi_awready : in  std_logic;
    m_axi_wdata   : out std_logic_vector(31 downto 0);
    m_axi_wstrb   : out std_logic_vector(3 downto 0);
    m_axi_wlast   : out std_logic;
    m_axi_wvalid  : out std_logic;
    m_axi_wready  : in  std_logic;
    m_axi_bresp   : in  std_logic_vector(1 downto 0);
    m_axi_bvalid  : in  std_logic;
    m_axi_bready  : out std_logic;
    m_axi_araddr  : out std_logic_vector(31 downto 0);
    m_axi_arlen   : out std_logic_vector(7 downto 0);
    m_axi_arsize  : out std_logic_vector(2 downto 0);
    m_axi_arburst : out std_logic_vector(1 downto 0);
    m_axi_arvalid : out std_logic;
    m_axi_arready : in  std_logic;
    m_axi_rdata   : in  std_logic_vector(31 downto 0);
    m_axi_rresp   : in  std_logic_vector(1 downto 0);
    m_axi_rlast   : in  std_logic;
    m_axi_rvalid  : in  std_logic;
    m_axi_rready  : out std_logic;
    -- observable strobes
    task_start    : out std_logic;
    task_done     : out std_logic;
    busy          : out std_logic;
    ev_forward    : out std_logic;
    ev_mac        : out std_logic);
end entity sa_accel;

architecture rtl of sa_accel is

  constant max_length_c : natural := 1024;
  constant buf_depth_c  : natural := 64;  -- results per actor (1024 / 16)

  type state_t is (st_idle, st_rd_addr, st_rd_data, st_drain, st_wr_next, st_wr_addr,
                   st_wr_data, st_wr_resp, st_finish);
  signal state : state_t;

  -- registers
  signal length_r, in_base_r, out_base_r : std_logic_vector(31 downto 0);
  signal cycles, results                 : unsigned(31 downto 0);
  signal done_flag                       : std_logic;

  -- read phase
  signal remaining : unsigned(10 downto 0);
  signal rd_addr   : unsigned(31 downto 0);
  signal drain_cnt : unsigned(1 downto 0);

  -- pipeline: stage 1 = forward, stage 2 = mac_16
  signal tok_valid : std_logic;
  signal tok_data  : std_logic_vector(31 downto 0);
  signal mac_in    : std_logic_vector(2 downto 0);
  signal mac_out_v : std_logic_vector(2 downto 0);
  type word3_t is array (0 to 2) of std_logic_vector(31 downto 0);
  signal mac_out_d : word3_t;

  -- result buffer: 3 actors x buf_depth_c words
  type ram_t is array (0 to 3 * buf_depth_c - 1) of std_logic_vector(31 downto 0);
  signal rbuf   : ram_t;
  type count3_t is array (0 to 2) of unsigned(6 downto 0);
  signal rcount : count3_t;
  signal rbuf_q : std_logic_vector(31 downto 0);
  signal rbuf_raddr : unsigned(7 downto 0);

  -- write phase
  signal actor : unsigned(1 downto 0);
  signal beat  : unsigned(6 downto 0);
  signal w_fire : std_logic;

  -- control slave
  signal aw_ok, w_ok        : std_logic;  -- address / data latched
  signal aw_addr, ar_addr   : std_logic_vector(14 downto 0);
  signal w_data             : std_logic_vector(31 downto 0);
  signal bvalid, rvalid     : std_logic;
  signal rdata              : std_logic_vector(31 downto 0);
  signal mem_busy, mem_rd   : std_logic;
  signal rd_pending         : std_logic;
  signal start_pulse        : std_logic;
  signal task_start_i       : std_logic;

  function to_sl_busy(st : state_t) return std_logic is
  begin
    if st = st_idle then
      return '0';
    end if;
    return '1';
  end function;

  function to_sl_idle(st : state_t) return std_logic is
  begin
    return not to_sl_busy(st);
  end function;

  function len_clamp(v : std_logic_vector(31 downto 0)) return unsigned is
  begin
    if unsigned(v) > max_length_c then
      return to_unsigned(max_length_c, 11);
    end if;
    return unsigned(v(10 downto 0));
  end function;

begin

  ---------------------------------------------------------------------------
  -- control slave: one access at a time; writes wait for AW and W
  ---------------------------------------------------------------------------
  s_axi_awready <= not aw_ok and not bvalid;
  s_axi_wready  <= not w_ok and not bvalid;
  s_axi_bvalid  <= bvalid;
  s_axi_bresp   <= "00";
  s_axi_arready <= not rd_pending and not rvalid;
  s_axi_rvalid  <= rvalid;
  s_axi_rdata   <= rdata;
  s_axi_rresp   <= "00";

  process (clk)
    variable waddr : unsigned(14 downto 0);
    variable raddr : unsigned(14 downto 0);
  begin
    if rising_edge(clk) then
      start_pulse <= '0';
      mh_req <= '0';
      if s_axi_awvalid = '1' and aw_ok = '0' and bvalid = '0' then
        aw_ok   <= '1';
        aw_addr <= s_axi_awaddr;
      end if;
      if s_axi_wvalid = '1' and w_ok = '0' and bvalid = '0' then
        w_ok   <= '1';
        w_data <= s_axi_wdata;
      end if;
      -- perform a write
      if aw_ok = '1' and w_ok = '1' and mem_busy = '0' and bvalid = '0' then
        waddr := unsigned(aw_addr);
        if waddr(14) = '1' then
          mh_req   <= '1';
          mh_we    <= '1';
          mh_addr  <= aw_addr(13 downto 2);
          mh_wdata <= w_data;
          mem_busy <= '1';
          mem_rd   <= '0';
        else
          if waddr(7 downto 2) = 0 and w_data(0) = '1' and state = st_idle then
            start_pulse <= '1';
          elsif waddr(7 downto 2) = 2 then
            length_r <= w_data;
          elsif waddr(7 downto 2) = 3 then
            in_base_r <= w_data;
          elsif waddr(7 downto 2) = 4 then
            out_base_r <= w_data;
          end if;
          aw_ok  <= '0';
          w_ok   <= '0';
          bvalid <= '1';
        end if;
      end if;
      if bvalid = '1' and s_axi_bready = '1' then
        bvalid <= '0';
      end if;
      -- perform a read
      if s_axi_arvalid = '1' and rd_pending = '0' and rvalid = '0' then
        rd_pending <= '1';
        ar_addr    <= s_axi_araddr;
      end if;
      if rd_pending = '1' and mem_busy = '0' and not (aw_ok = '1' and w_ok = '1' and bvalid = '0') then
        raddr := unsigned(ar_addr);
        if raddr(14) = '1' then
          mh_req   <= '1';
          mh_we    <= '0';
          mh_addr  <= ar_addr(13 downto 2);
          mem_busy <= '1';
          mem_rd   <= '1';
        else
          rdata <= (others => '0');
          if raddr(7 downto 2) = 1 then
            rdata(0) <= to_sl_busy(state);
            rdata(1) <= done_flag;
          elsif raddr(7 downto 2) = 2 then
            rdata <= length_r;
          elsif raddr(7 downto 2) = 3 then
            rdata <= in_base_r;
          elsif raddr(7 downto 2) = 4 then
            rdata <= out_base_r;
          elsif raddr(7 downto 2) = 5 then
            rdata <= std_logic_vector(cycles);
          elsif raddr(7 downto 2) = 6 then
            rdata <= std_logic_vector(results);
          end if;
          rd_pending <= '0';
          rvalid     <= '1';
        end if;
      end if;
      if mem_busy = '1' and mh_ack = '1' then
        mem_busy <= '0';
        if mem_rd = '1' then
          rdata      <= mh_rdata;
          rd_pending <= '0';
          rvalid     <= '1';
        else
          aw_ok  <= '0';
          w_ok   <= '0';
          bvalid <= '1';
        end if;
      end if;
      if rvalid = '1' and s_axi_rready = '1' then
        rvalid <= '0';
      end if;
      if rst = '1' then
        aw_ok      <= '0';
        w_ok       <= '0';
        bvalid     <= '0';
        rvalid     <= '0';
        rd_pending <= '0';
        mem_busy   <= '0';
        length_r   <= (others => '0');
        in_base_r  <= (others => '0');
        out_base_r <= (others => '0');
      end if;
    end if;
  end process;

  ---------------------------------------------------------------------------
  -- main sequence
  ---------------------------------------------------------------------------
  w_fire <= '1' when state = st_wr_data and m_axi_wready = '1' else '0';

  process (clk)
    variable n : unsigned(10 downto 0);
  begin
    if rising_edge(clk) then
      if state /= st_idle then
        cycles <= cycles + 1;
      end if;
      if state = st_idle then
        if start_pulse = '1' then
          n := len_clamp(length_r);
          remaining <= n;
          rd_addr   <= unsigned(in_base_r);
          cycles    <= (others => '0');
          results   <= (others => '0');
          done_flag <= '0';
          if n = 0 then
            state <= st_drain;
          else
            state <= st_rd_addr;
          end if;
          drain_cnt <= (others => '0');
        end if;
      elsif state = st_rd_addr then
        if m_axi_arready = '1' then
          state <= st_rd_data;
        end if;
      elsif state = st_rd_data then
        if m_axi_rvalid = '1' then
          remaining <= remaining - 1;
          rd_addr   <= rd_addr + 4;
          if m_axi_rlast = '1' then
            if remaining = 1 then
              state <= st_drain;
            else
              state <= st_rd_addr;
            end if;
          end if;
        end if;
      elsif state = st_drain then
        -- forward (1) + mac_16 (1) + buffer write (1)
        drain_cnt <= drain_cnt + 1;
        if drain_cnt = 2 then
          actor <= (others => '0');
          state <= st_wr_next;
        end if;
      elsif state = st_wr_next then
        beat <= (others => '0');
        if actor = 3 then
          state <= st_finish;
        elsif rcount(to_integer(actor)) = 0 then
          actor <= actor + 1;
        else
          state <= st_wr_addr;
        end if;
      elsif state = st_wr_addr then
        if m_axi_awready = '1' then
          state <= st_wr_data;
        end if;
      elsif state = st_wr_data then
        if m_axi_wready = '1' then
          beat    <= beat + 1;
          results <= results + 1;
          if beat = rcount(to_integer(actor)) - 1 then
            state <= st_wr_resp;
          end if;
        end if;
      elsif state = st_wr_resp then
        if m_axi_bvalid = '1' then
          actor <= actor + 1;
          state <= st_wr_next;
        end if;
      elsif state = st_finish then
        done_flag <= '1';
        state     <= st_idle;
      end if;
      if rst = '1' then
        state     <= st_idle;
        done_flag <= '0';
        cycles    <= (others => '0');
        results   <= (others => '0');
      end if;
    end if;
  end process;

  task_start_i <= start_pulse and to_sl_idle(state);
  task_start   <= task_start_i;
  task_done  <= '1' when state = st_finish else '0';
  busy       <= to_sl_busy(state);

  m_axi_araddr  <= std_logic_vector(rd_addr);
  m_axi_arlen   <= std_logic_vector(resize(remaining - 1, 8)) when remaining <= 256 else x"FF";
  m_axi_arsize  <= "010";
  m_axi_arburst <= "01";
  m_axi_arvalid <= '1' when state = st_rd_addr else '0';
  m_axi_rready  <= '1' when state = st_rd_data else '0';

  m_axi_awaddr  <= std_logic_vector(unsigned(out_base_r) + shift_left(resize(actor, 32), 12));
  m_axi_awlen   <= std_logic_vector(resize(rcount(to_integer(actor)) - 1, 8)) when actor /= 3 else x"00";
  m_axi_awsize  <= "010";
  m_axi_awburst <= "01";
  m_axi_awvalid <= '1' when state = st_wr_addr else '0';
  m_axi_wdata   <= rbuf_q;
  m_axi_wstrb   <= "1111";
  m_axi_wlast   <= '1' when actor /= 3 and beat = rcount(to_integer(actor)) - 1 else '0';
  m_axi_wvalid  <= '1' when state = st_wr_data else '0';
  m_axi_bready  <= '1' when state = st_wr_resp else '0';

  ---------------------------------------------------------------------------
  -- data cruncher: forward -> mac_16 x 3 -> result buffer
  ---------------------------------------------------------------------------
  process (clk)
  begin
    if rising_edge(clk) then
      -- stage 1: the token read from memory
      tok_valid <= '0';
      if state = st_rd_data and m_axi_rvalid = '1' then
        tok_valid <= '1';
        tok_data  <= m_axi_rdata;
      end if;
      if rst = '1' then
        tok_valid <= '0';
      end if;
    end if;
  end process;

  -- forward: combinational routing of the stage-1 token
  process (all)
    variable x : signed(31 downto 0);
  begin
    x := signed(tok_data);
    mac_in <= "000";
    if tok_valid = '1' then
      if x > 5 then
        mac_in(0) <= '1';
      elsif x >= 0 and x <= 4 then
        mac_in(1) <= '1';
      elsif x < 0 then
        mac_in(2) <= '1';
      end if;
    end if;
  end process;

  ev_forward <= tok_valid;
  ev_mac     <= mac_in(0) or mac_in(1) or mac_in(2);

  gen_mac : for k in 0 to 2 generate
    mac : entity work.sa_mac16
      generic map (coef_g => 3 + 2 * k)
      port map (clk => clk, rst => rst, clear => task_start_i, in_valid => mac_in(k), in_data => tok_data,
                out_valid => mac_out_v(k), out_data => mac_out_d(k));
  end generate;

  -- result buffer: one write per cycle at most (one token per cycle)
  -- (the mac_16 actors receive at most one token per cycle between them, so
  -- at most one result arrives per cycle: one write port)
  rbuf_raddr <= shift_left(resize(actor, 8), 6) + resize(beat, 8) + ("0000000" & w_fire)
                when actor /= 3 else (others => '0');

  process (clk)
    variable wk   : natural range 0 to 2;
    variable wen  : boolean;
    variable wdat : std_logic_vector(31 downto 0);
  begin
    if rising_edge(clk) then
      wen  := false;
      wk   := 0;
      wdat := mac_out_d(0);
      for k in 0 to 2 loop
        if mac_out_v(k) = '1' then
          wen  := true;
          wk   := k;
          wdat := mac_out_d(k);
        end if;
      end loop;
      if wen and rcount(wk) < buf_depth_c then
        rbuf(wk * buf_depth_c + to_integer(rcount(wk))) <= wdat;
        rcount(wk) <= rcount(wk) + 1;
      end if;
      rbuf_q <= rbuf(to_integer(rbuf_raddr));
      if start_pulse = '1' and state = st_idle then
        rcount <= (others => (others => '0'));
      end if;
      if rst = '1' then
        rcount <= (others => (others => '0'));
      end if;
    end if;
  end process;

end architecture rtl;
