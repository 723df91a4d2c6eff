-- SPDX-License-Identifier: MIT
-- jointer_eig_activity: interfacer classifying every cycle of a set of
-- VALID/READY channels (the bus utilization monitor of PMTS): per channel,
-- transfer (VALID and READY), stall (VALID, not READY) or idle (not VALID),
-- exactly one of the three per observed cycle. Every observed input is
-- registered once; the classification of the inputs of cycle n is on
-- cand_valid in cycle n+1, one candidate lane per class:
--   lane 0       : cycles   (every observed cycle: the reference count)
--   lane 1 + 3c  : transfer of channel c
--   lane 2 + 3c  : stall of channel c
--   lane 3 + 3c  : idle of channel c
-- so that, per channel, transfer + stall + idle = cycles. A cycle with rst
-- is not observed (no lane). cand_data = the stall bitmap (bit c = channel c
-- stalled), for time extractors on lane 0 (active while some channel
-- stalls); cand_bytes = 1. Paper block: EIG interfacer (LIB_ADAPT).
--   channels_g : number of VALID/READY pairs (1..10; 1 + 3 x channels lanes)

library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;
use work.jointer_pkg.all;

entity jointer_eig_activity is
  generic (
    channels_g : positive := 1);
  port (
    clk        : in  std_logic;
    rst        : in  std_logic;
    mon_valid  : in  std_logic_vector(channels_g - 1 downto 0);
    mon_ready  : in  std_logic_vector(channels_g - 1 downto 0);
    cand_valid : out std_logic_vector(3 * channels_g downto 0);
    cand_data  : out std_logic_vector(data_w_c - 1 downto 0);
    cand_bytes : out std_logic_vector(inc_w_c - 1 downto 0));
end entity jointer_eig_activity;

architecture rtl of jointer_eig_activity is
  signal valid_r : std_logic_vector(channels_g - 1 downto 0);  -- inputs, registered once
  signal ready_r : std_logic_vector(channels_g - 1 downto 0);
  signal live_r  : std_logic;  -- the registered inputs belong to an observed cycle
  signal stall   : std_logic_vector(channels_g - 1 downto 0);
begin

  assert channels_g <= 10
    report "jointer_eig_activity: channels_g must be 1..10 (1 + 3 x channels lanes <= 32)"
    severity failure;

  process (clk)
  begin
    if rising_edge(clk) then
      valid_r <= mon_valid;
      ready_r <= mon_ready;
      live_r  <= '1';
      if rst = '1' then
        valid_r <= (others => '0');
        ready_r <= (others => '0');
        live_r  <= '0';
      end if;
    end if;
  end process;

  stall <= valid_r and not ready_r;

  cand_valid(0) <= live_r;
  lanes : for c in 0 to channels_g - 1 generate
    cand_valid(1 + 3 * c) <= live_r and valid_r(c) and ready_r(c);
    cand_valid(2 + 3 * c) <= live_r and stall(c);
    cand_valid(3 + 3 * c) <= live_r and not valid_r(c);
  end generate lanes;

  data : process (all)
  begin
    cand_data <= (others => '0');
    cand_data(channels_g - 1 downto 0) <= stall;
  end process data;

  cand_bytes <= std_logic_vector(to_unsigned(1, inc_w_c));

end architecture rtl;
