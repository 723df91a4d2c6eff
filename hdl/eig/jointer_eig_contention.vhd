-- SPDX-License-Identifier: MIT
-- jointer_eig_contention: interfacer for N masters sharing a bus (PMTS:
-- bus contention monitor BCM and bus global monitor BGM). Per observed
-- cycle, master i is granted (VALID and READY: it transfers) or waiting
-- (VALID, not READY). Every observed input is registered once (and the
-- number of waiting masters, counted before its register); the
-- classification of the inputs of cycle n is on cand_valid in cycle n+1:
--   lane 0      : cycles       (every observed cycle)
--   lane 1      : contention   (two or more masters waiting)
--   lane 2      : single_wait  (exactly one master waiting)
--   lane 3      : no_wait      (no master waiting)      1+2+3 = cycles
--   lane 4      : busy         (some master has VALID)
--   lane 5      : idle         (no master has VALID)    4+5   = cycles
--   lane 6 + 2i : grant of master i (it transfers)
--   lane 7 + 2i : wait of master i  (it waits)
-- A cycle with rst is not observed (no lane). cand_data = the number of
-- waiting masters (for time extractors on lane 0: a filter 2..N counts
-- contended cycles, aggregator max gives the longest contention);
-- cand_bytes = 1. Paper block: EIG interfacer (LIB_ADAPT).
--   masters_g : number of masters (1..13; 6 + 2 x masters lanes)

library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;
use work.jointer_pkg.all;

entity jointer_eig_contention is
  generic (
    masters_g : positive := 2);
  port (
    clk        : in  std_logic;
    rst        : in  std_logic;
    mon_valid  : in  std_logic_vector(masters_g - 1 downto 0);
    mon_ready  : in  std_logic_vector(masters_g - 1 downto 0);
    cand_valid : out std_logic_vector(5 + 2 * masters_g downto 0);
    cand_data  : out std_logic_vector(data_w_c - 1 downto 0);
    cand_bytes : out std_logic_vector(inc_w_c - 1 downto 0));
end entity jointer_eig_contention;

architecture rtl of jointer_eig_contention is
  signal valid_r : std_logic_vector(masters_g - 1 downto 0);  -- inputs, registered once
  signal ready_r : std_logic_vector(masters_g - 1 downto 0);
  signal live_r  : std_logic;  -- the registered inputs belong to an observed cycle
  signal waiting : std_logic_vector(masters_g - 1 downto 0);
  -- masters waiting, 0..masters_g, counted before the register (the filter
  -- and the extractor behind cand_data start from a flip-flop)
  signal nwait_r : unsigned(clog2(masters_g + 1) - 1 downto 0);
begin

  assert masters_g <= 13
    report "jointer_eig_contention: masters_g must be 1..13 (6 + 2 x masters lanes <= 32)"
    severity failure;

  process (clk)
  begin
    if rising_edge(clk) then
      valid_r <= mon_valid;
      ready_r <= mon_ready;
      nwait_r <= popcount(mon_valid and not mon_ready);
      live_r  <= '1';
      if rst = '1' then
        valid_r <= (others => '0');
        ready_r <= (others => '0');
        nwait_r <= (others => '0');
        live_r  <= '0';
      end if;
    end if;
  end process;

  waiting <= valid_r and not ready_r;

  cand_valid(0) <= live_r;
  cand_valid(1) <= live_r when nwait_r >= 2 else '0';
  cand_valid(2) <= live_r when nwait_r = 1 else '0';
  cand_valid(3) <= live_r when nwait_r = 0 else '0';
  cand_valid(4) <= live_r and (or valid_r);
  cand_valid(5) <= live_r and not (or valid_r);
  lanes : for i in 0 to masters_g - 1 generate
    cand_valid(6 + 2 * i) <= live_r and valid_r(i) and ready_r(i);
    cand_valid(7 + 2 * i) <= live_r and waiting(i);
  end generate lanes;

  cand_data  <= std_logic_vector(resize(nwait_r, data_w_c));
  cand_bytes <= std_logic_vector(to_unsigned(1, inc_w_c));

end architecture rtl;
