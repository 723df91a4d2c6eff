-- SPDX-License-Identifier: MIT
-- jointer_eig_id_table: the table of outstanding AXI4 transactions that the
-- AXI4 taps share (jointer_eig_axi4's read side, jointer_eig_axi4_latency's
-- reads and B-ended writes; doc/internals/eig.md "Interfacers"). AXI4 answers
-- the transactions of one ID in order and those of different IDs in any
-- order: a closing beat belongs to the oldest open transaction of its ID.
--
-- Per entry: valid, ID, head (the oldest open transaction of its ID) and
-- tail (the youngest) in flip-flops; the payload and the next younger entry
-- of the same ID in distributed RAM (written at one computed index per
-- cycle, read at one). The search is one compare per entry, so a beat finds
-- its transaction in the cycle it arrives, whatever the number of IDs.
-- - open_hs (one cycle, open_id, open_pay): a transaction opens; it takes
--   the lowest free entry and queues behind the tail of its ID. With the
--   table full (max_outstanding_g open and none closing) it is not stored:
--   the tap's bound, stated by its caller.
-- - close_hs (close_id, close_last): a beat of the oldest open transaction
--   of close_id: hit = 1 and hit_pay = its payload (combinational, same
--   cycle); with close_last it closes, and the next one of its ID becomes
--   the oldest. No open transaction of that ID: hit = 0.
-- - A close and an open in the same cycle: the close is seen first (a
--   closing entry is free for the open, and an open of the same ID queues
--   behind what remains).
-- Inputs come from registers of the caller (the taps register the bus once).
-- Reset (rst, synchronous): empties the table.
-- Generics:
--   max_outstanding_g : entries (1..32)
--   id_w_g            : ID bits
--   pay_w_g           : payload bits per entry

library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;

use work.jointer_pkg.all;

entity jointer_eig_id_table is
  generic (
    max_outstanding_g : positive := 8;
    id_w_g            : positive := 4;
    pay_w_g           : positive := 32);
  port (
    clk        : in  std_logic;
    rst        : in  std_logic;
    open_hs    : in  std_logic;
    open_id    : in  std_logic_vector(id_w_g - 1 downto 0);
    open_pay   : in  std_logic_vector(pay_w_g - 1 downto 0);
    close_hs   : in  std_logic;
    close_id   : in  std_logic_vector(id_w_g - 1 downto 0);
    close_last : in  std_logic;
    hit        : out std_logic;
    hit_pay    : out std_logic_vector(pay_w_g - 1 downto 0));
end entity jointer_eig_id_table;

architecture rtl of jointer_eig_id_table is
  constant n_c     : positive := max_outstanding_g;
  constant idx_w_c : positive := maximum(clog2(n_c), 1);
  constant mem_d_c : positive := 2 ** idx_w_c;

  type id_arr_t is array (0 to n_c - 1) of std_logic_vector(id_w_g - 1 downto 0);
  type pay_mem_t is array (0 to mem_d_c - 1) of std_logic_vector(pay_w_g - 1 downto 0);
  type next_mem_t is array (0 to mem_d_c - 1) of unsigned(idx_w_c - 1 downto 0);
  signal pay_mem  : pay_mem_t;
  signal next_mem : next_mem_t;
  signal valid    : std_logic_vector(n_c - 1 downto 0);
  signal head     : std_logic_vector(n_c - 1 downto 0);
  signal tail     : std_logic_vector(n_c - 1 downto 0);
  signal ids      : id_arr_t;

  signal match    : std_logic_vector(n_c - 1 downto 0);  -- head entry of the closing ID
  signal retire   : std_logic_vector(n_c - 1 downto 0);  -- ... closes now
  signal free     : std_logic_vector(n_c - 1 downto 0);  -- a closing entry is free
  signal slot_oh  : std_logic_vector(n_c - 1 downto 0);  -- lowest free entry
  signal op_tail  : std_logic_vector(n_c - 1 downto 0);  -- youngest remaining of the opening ID
  signal promote  : std_logic;                           -- the closing entry has a successor
  signal alloc    : std_logic;
  signal chain    : std_logic;                           -- the new entry queues behind op_tail
  signal idx      : unsigned(idx_w_c - 1 downto 0);
  signal slot     : unsigned(idx_w_c - 1 downto 0);
  signal tail_idx : unsigned(idx_w_c - 1 downto 0);
  signal succ     : unsigned(idx_w_c - 1 downto 0);      -- next_mem(idx)
begin
  assert max_outstanding_g <= 32
    report "jointer_eig_id_table: max_outstanding_g must be 1..32" severity failure;

  g_cmp : for i in 0 to n_c - 1 generate
    match(i)   <= valid(i) and head(i) and to_sl(ids(i) = close_id);
    retire(i)  <= match(i) and close_hs and close_last;
    free(i)    <= not valid(i) or retire(i);
    op_tail(i) <= valid(i) and tail(i) and not retire(i) and to_sl(ids(i) = open_id);
  end generate g_cmp;
  slot_oh(0) <= free(0);
  g_slot : for i in 1 to n_c - 1 generate
    slot_oh(i) <= free(i) and not (or free(i - 1 downto 0));
  end generate g_slot;
  hit     <= close_hs and (or match);
  promote <= close_hs and close_last and (or (match and not tail));
  alloc   <= open_hs and (or free);
  chain   <= or op_tail;

  process (all)
    variable v_idx  : unsigned(idx_w_c - 1 downto 0);
    variable v_slot : unsigned(idx_w_c - 1 downto 0);
    variable v_tail : unsigned(idx_w_c - 1 downto 0);
  begin
    v_idx  := (others => '0');
    v_slot := (others => '0');
    v_tail := (others => '0');
    for i in 0 to n_c - 1 loop                     -- one-hot to binary
      if match(i) = '1' then
        v_idx := v_idx or to_unsigned(i, idx_w_c);
      end if;
      if op_tail(i) = '1' then
        v_tail := v_tail or to_unsigned(i, idx_w_c);
      end if;
      if slot_oh(i) = '1' then
        v_slot := v_slot or to_unsigned(i, idx_w_c);
      end if;
    end loop;
    idx      <= v_idx;
    slot     <= v_slot;
    tail_idx <= v_tail;
  end process;

  succ    <= next_mem(to_integer(idx));
  hit_pay <= pay_mem(to_integer(idx));

  process (clk)
  begin
    if rising_edge(clk) then
      -- per entry with static indices (GHDL 2.0 synth turns an array
      -- register written only at a computed index into a loop)
      for i in 0 to n_c - 1 loop
        if retire(i) = '1' then
          valid(i) <= '0';
        end if;
        if promote = '1' and succ = i then          -- the next one of the ID is now the oldest
          head(i) <= '1';
        end if;
        if chain = '1' and alloc = '1' and op_tail(i) = '1' then
          tail(i) <= '0';                           -- the new entry queues behind it
        end if;
        if alloc = '1' and slot_oh(i) = '1' then
          valid(i) <= '1';
          ids(i)   <= open_id;
          head(i)  <= not chain;
          tail(i)  <= '1';
        end if;
      end loop;
      if alloc = '1' then
        pay_mem(to_integer(slot)) <= open_pay;
      end if;
      if alloc = '1' and chain = '1' then
        next_mem(to_integer(tail_idx)) <= slot;
      end if;
      if rst = '1' then
        valid <= (others => '0');
      end if;
    end if;
  end process;

end architecture rtl;
