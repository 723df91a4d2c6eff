-- SPDX-License-Identifier: MIT
-- jointer_trace_ram: simple dual-port RAM, one clock, inferred (block RAM or
-- distributed RAM, as synthesis sees fit; no vendor primitive). Holds the
-- records of a trace DCAPF. Write port: we/waddr/wdata. Read port: rdata is
-- registered, the word at raddr one cycle later; a read of the word being
-- written in the same cycle returns its old content (read-first). The
-- memory starts all zeros (initial value, kept by FPGA configuration).
--   depth_log2_g : log2 of the number of words (1..16)
--   width_g      : bits per word

library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;

entity jointer_trace_ram is
  generic (
    depth_log2_g : positive := 8;
    width_g      : positive := 64);
  port (
    clk   : in  std_logic;
    we    : in  std_logic;
    waddr : in  std_logic_vector(depth_log2_g - 1 downto 0);
    wdata : in  std_logic_vector(width_g - 1 downto 0);
    raddr : in  std_logic_vector(depth_log2_g - 1 downto 0);
    rdata : out std_logic_vector(width_g - 1 downto 0));
end entity jointer_trace_ram;

architecture rtl of jointer_trace_ram is
  type mem_t is array (0 to 2 ** depth_log2_g - 1) of std_logic_vector(width_g - 1 downto 0);
  signal mem : mem_t := (others => (others => '0'));
begin

  assert depth_log2_g <= 16
    report "jointer_trace_ram: depth_log2_g must be 1..16" severity failure;

  process (clk)
  begin
    if rising_edge(clk) then
      if we = '1' then
        mem(to_integer(unsigned(waddr))) <= wdata;
      end if;
      rdata <= mem(to_integer(unsigned(raddr)));
    end if;
  end process;

end architecture rtl;
