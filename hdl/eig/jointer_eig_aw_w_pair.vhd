-- SPDX-License-Identifier: MIT
-- jointer_eig_aw_w_pair: pairs the k-th AW entry with the k-th W entry of an
-- AXI write tap (jointer_eig_axi4's write side, jointer_eig_axi4lite), in
-- any order: AW first, W first or in the same cycle. AXI has no WID, so the
-- writes complete in AW order and the pairing is all the tap needs.
--
-- Two queues in distributed RAM, written at their write pointer, read at
-- their read pointer (combinational, from registers only). fire = both hold
-- an entry: one pair per cycle, aw_head and w_head are its entries. Each
-- fire removes the W head; the AW head goes with it when aw_pop_en = '1'
-- (tie to '1'; a per-beat tap drives the last-beat bit of w_head, so that an
-- AW stays for all the beats of its burst). An entry pushed while its queue
-- is full and not draining is dropped (the taps' bounds, stated there).
-- Reset (rst, synchronous): empties both queues.
--
--   aw_w_g, w_w_g         : bits per AW / W entry
--   aw_depth_g, w_depth_g : entries per queue (powers of 2, 2 or more)

library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;
use work.jointer_pkg.all;

entity jointer_eig_aw_w_pair is
  generic (
    aw_w_g     : positive := 32;
    w_w_g      : positive := 3;
    aw_depth_g : positive := 8;
    w_depth_g  : positive := 8);
  port (
    clk       : in  std_logic;
    rst       : in  std_logic;
    aw_push   : in  std_logic;
    aw_in     : in  std_logic_vector(aw_w_g - 1 downto 0);
    w_push    : in  std_logic;
    w_in      : in  std_logic_vector(w_w_g - 1 downto 0);
    aw_pop_en : in  std_logic;
    fire      : out std_logic;
    aw_head   : out std_logic_vector(aw_w_g - 1 downto 0);
    w_head    : out std_logic_vector(w_w_g - 1 downto 0));
end entity jointer_eig_aw_w_pair;

architecture rtl of jointer_eig_aw_w_pair is
  constant aw_ptr_w_c : positive := clog2(aw_depth_g) + 1;  -- with a wrap bit
  constant w_ptr_w_c  : positive := clog2(w_depth_g) + 1;

  type aw_mem_t is array (0 to aw_depth_g - 1) of std_logic_vector(aw_w_g - 1 downto 0);
  type w_mem_t is array (0 to w_depth_g - 1) of std_logic_vector(w_w_g - 1 downto 0);
  signal aw_mem  : aw_mem_t;
  signal w_mem   : w_mem_t;
  signal aw_rptr : unsigned(aw_ptr_w_c - 1 downto 0);
  signal aw_wptr : unsigned(aw_ptr_w_c - 1 downto 0);
  signal w_rptr  : unsigned(w_ptr_w_c - 1 downto 0);
  signal w_wptr  : unsigned(w_ptr_w_c - 1 downto 0);
  signal aw_used : unsigned(aw_ptr_w_c - 1 downto 0);
  signal w_used  : unsigned(w_ptr_w_c - 1 downto 0);
  signal pair    : std_logic;                      -- both queues hold an entry
  signal aw_pop  : std_logic;
begin
  assert 2 ** clog2(aw_depth_g) = aw_depth_g and 2 ** clog2(w_depth_g) = w_depth_g
         and aw_depth_g >= 2 and w_depth_g >= 2
    report "jointer_eig_aw_w_pair: aw_depth_g and w_depth_g must be powers of 2 (2 or more)"
    severity failure;

  aw_used <= aw_wptr - aw_rptr;
  w_used  <= w_wptr - w_rptr;
  pair    <= '1' when aw_used /= 0 and w_used /= 0 else '0';
  aw_pop  <= pair and aw_pop_en;
  fire    <= pair;
  aw_head <= aw_mem(to_integer(aw_rptr(aw_ptr_w_c - 2 downto 0)));
  w_head  <= w_mem(to_integer(w_rptr(w_ptr_w_c - 2 downto 0)));

  process (clk)
  begin
    if rising_edge(clk) then
      if aw_push = '1' and (aw_used /= aw_depth_g or aw_pop = '1') then
        aw_mem(to_integer(aw_wptr(aw_ptr_w_c - 2 downto 0))) <= aw_in;
        aw_wptr <= aw_wptr + 1;
      end if;
      if w_push = '1' and (w_used /= w_depth_g or pair = '1') then
        w_mem(to_integer(w_wptr(w_ptr_w_c - 2 downto 0))) <= w_in;
        w_wptr <= w_wptr + 1;
      end if;
      if pair = '1' then
        w_rptr <= w_rptr + 1;
      end if;
      if aw_pop = '1' then
        aw_rptr <= aw_rptr + 1;
      end if;
      if rst = '1' then
        aw_rptr <= (others => '0');
        aw_wptr <= (others => '0');
        w_rptr  <= (others => '0');
        w_wptr  <= (others => '0');
      end if;
    end if;
  end process;

end architecture rtl;
