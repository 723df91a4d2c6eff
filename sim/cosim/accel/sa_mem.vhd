-- SPDX-License-Identifier: MIT
-- sa_mem: the demo SoC's data memory (the paper's "AXI accessible BRAM",
-- the TECS paper, section 4.1): 4096 x 32-bit words behind an AXI4 slave (INCR
-- bursts, 32-bit beats, full-word writes) used by sa_accel's DMA, and a
-- request/acknowledge host port used by sa_accel's control slave to load
-- inputs and read results. Demo IP, not part of the library.
--
-- Timing is fixed so that the demo's cycle counts are exactly predictable:
--   read : AR accepted in the idle state (cycle t); beat i is presented at
--          t+1+i while RREADY stays high.
--   write: AW accepted in the idle state (cycle t); WREADY high from t+1; B
--          presented the cycle after the WLAST beat, held until BREADY.
--   host : served when the AXI side is idle, acknowledged one cycle later.
-- Addresses wrap every 16 KiB (byte address bits 13..2 select the word).

library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;

entity sa_mem is
  port (
    clk           : in  std_logic;
    rst           : in  std_logic;
    s_axi_awaddr  : in  std_logic_vector(31 downto 0);
    s_axi_awlen   : in  std_logic_vector(7 downto 0);
    s_axi_awvalid : in  std_logic;
    s_axi_awready : out std_logic;
    s_axi_wdata   : in  std_logic_vector(31 downto 0);
    s_axi_wlast   : in  std_logic;
    s_axi_wvalid  : in  std_logic;
    s_axi_wready  : out std_logic;
    s_axi_bresp   : out std_logic_vector(1 downto 0);
    s_axi_bvalid  : out std_logic;
    s_axi_bready  : in  std_logic;
    s_axi_araddr  : in  std_logic_vector(31 downto 0);
    s_axi_arlen   : in  std_logic_vector(7 downto 0);
    s_axi_arvalid : in  std_logic;
    s_axi_arready : out std_logic;
    s_axi_rdata   : out std_logic_vector(31 downto 0);
    s_axi_rresp   : out std_logic_vector(1 downto 0);
    s_axi_rlast   : out std_logic;
    s_axi_rvalid  : out std_logic;
    s_axi_rready  : in  std_logic;
    mh_req        : in  std_logic;
    mh_we         : in  std_logic;
    mh_addr       : in  std_logic_vector(11 downto 0);
    mh_wdata      : in  std_logic_vector(31 downto 0);
    mh_ack        : out std_logic;
    mh_rdata      : out std_logic_vector(31 downto 0));
end entity sa_mem;

architecture rtl of sa_mem is
  type state_t is (st_idle, st_read, st_write, st_bresp);
  signal state : state_t;
  type ram_t is array (0 to 4095) of std_logic_vector(31 downto 0);
  signal ram : ram_t;
  signal ptr       : unsigned(11 downto 0);  -- word of the current beat
  signal left      : unsigned(7 downto 0);   -- beats after the current one
  signal rvalid    : std_logic;
  signal q         : std_logic_vector(31 downto 0);
  signal h_pending : std_logic;
  signal h_we      : std_logic;
  signal h_addr    : std_logic_vector(11 downto 0);
  signal h_wdata   : std_logic_vector(31 downto 0);
  signal r_fire    : std_logic;
begin

  s_axi_arready <= '1' when state = st_idle else '0';
  s_axi_awready <= '1' when state = st_idle and s_axi_arvalid = '0' else '0';
  s_axi_wready  <= '1' when state = st_write else '0';
  s_axi_bvalid  <= '1' when state = st_bresp else '0';
  s_axi_bresp   <= "00";
  s_axi_rvalid  <= rvalid;
  s_axi_rdata   <= q;
  s_axi_rresp   <= "00";
  s_axi_rlast   <= '1' when rvalid = '1' and left = 0 else '0';
  r_fire        <= rvalid and s_axi_rready;

  process (clk)
    variable host_now : boolean;
  begin
    if rising_edge(clk) then
      mh_ack <= '0';
      if mh_req = '1' then
        h_pending <= '1';
        h_we      <= mh_we;
        h_addr    <= mh_addr;
        h_wdata   <= mh_wdata;
      end if;
      host_now := false;
      if state = st_idle then
        if s_axi_arvalid = '1' then
          ptr   <= unsigned(s_axi_araddr(13 downto 2));
          left  <= unsigned(s_axi_arlen);
          q     <= ram(to_integer(unsigned(s_axi_araddr(13 downto 2))));
          rvalid <= '1';
          state <= st_read;
        elsif s_axi_awvalid = '1' then
          ptr   <= unsigned(s_axi_awaddr(13 downto 2));
          state <= st_write;
        elsif h_pending = '1' then
          host_now := true;
        end if;
      elsif state = st_read then
        if r_fire = '1' then
          if left = 0 then
            rvalid <= '0';
            state  <= st_idle;
          else
            ptr  <= ptr + 1;
            left <= left - 1;
            q    <= ram(to_integer(ptr + 1));
          end if;
        end if;
      elsif state = st_write then
        if s_axi_wvalid = '1' then
          ram(to_integer(ptr)) <= s_axi_wdata;
          ptr <= ptr + 1;
          if s_axi_wlast = '1' then
            state <= st_bresp;
          end if;
        end if;
      elsif state = st_bresp then
        if s_axi_bready = '1' then
          state <= st_idle;
        end if;
      end if;
      if host_now then
        h_pending <= '0';
        mh_ack    <= '1';
        if h_we = '1' then
          ram(to_integer(unsigned(h_addr))) <= h_wdata;
        else
          mh_rdata <= ram(to_integer(unsigned(h_addr)));
        end if;
      end if;
      if rst = '1' then
        state     <= st_idle;
        rvalid    <= '0';
        h_pending <= '0';
        mh_ack    <= '0';
      end if;
    end if;
  end process;

end architecture rtl;
