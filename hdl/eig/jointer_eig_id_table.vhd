-- jointer_eig_id_table: the table of outstanding AXI4 transactions that the
-- AXI4 taps share (jointer_eig_axi4's read side, jointer_eig_axi4_latency's
-- reads and B-ended writes; doc/internals/eig.md "Interfacers"). AXI4 answers
-- the transactions of one ID in order and those of different IDs in any
-- order: a closing beat belongs to the oldest open transaction of its ID.
--
-- Per entry: valid, ID, head (the oldest open transaction of its ID) and
-- tail (the youngest) in flip-flops; the payload and the next younger entry
-- of the same ID (one-hot: its bit is the head flag's next value, no
-- decoder) in distributed RAM (written at one computed index per cycle,
-- read at one).
-- - open_hs (one cycle, open_id): a transaction opens; it takes a free
--   entry and queues behind the tail of its ID. With the table full
--   (max_outstanding_g open and none closing) it is not stored: the tap's
--   bound, stated by its caller. open_pay, its payload, comes one cycle
--   after open_hs.
-- - close_hs (close_id, close_last): a beat of the oldest open transaction
--   of close_id: one cycle later, hit = 1 and hit_pay = its payload
--   (combinational, from registers); with close_last it closes, and the next
--   one of its ID becomes the oldest. No open transaction of that ID: hit = 0.
-- - A close and an open in the same cycle: the close is seen first (a
--   closing entry is free for the open, and an open of the same ID queues
--   behind what remains).
-- Inputs come from registers of the caller (the taps register the bus once).
--
-- Two stages, so that no path is more than about 4 LUTs deep: the first
-- compares the incoming IDs with the ID of every entry that stays open
-- (registered per entry: cm_r, om_r); the second finds the oldest entry of
-- the closing ID (one LUT per entry), reads its payload and its successor,
-- and updates the table. The entry taken in the second stage has its ID
-- written at once; the compares made meanwhile (against a free entry) are
-- replaced by one compare with the opening ID (eq_r, eqo_r), and its head
-- flag is taken from nh_r for one cycle (the lazy head), so that neither
-- the compare nor the search for a remaining older entry of its ID is on
-- the path that matches the next close. A closing entry's successor
-- becomes head at the edge ending the cycle, in time for a close of the
-- same ID in the next one. Exact: the same answers as a one-stage table,
-- one cycle later.
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
    open_pay   : in  std_logic_vector(pay_w_g - 1 downto 0);  -- one cycle after open_hs
    close_hs   : in  std_logic;
    close_id   : in  std_logic_vector(id_w_g - 1 downto 0);
    close_last : in  std_logic;
    hit        : out std_logic;                               -- one cycle after close_hs
    hit_pay    : out std_logic_vector(pay_w_g - 1 downto 0));
end entity jointer_eig_id_table;

architecture rtl of jointer_eig_id_table is
  constant n_c     : positive := max_outstanding_g;
  constant idx_w_c : positive := maximum(clog2(n_c), 1);
  constant mem_d_c : positive := 2 ** idx_w_c;

  type id_arr_t is array (0 to n_c - 1) of std_logic_vector(id_w_g - 1 downto 0);
  type pay_mem_t is array (0 to mem_d_c - 1) of std_logic_vector(pay_w_g - 1 downto 0);
  type next_mem_t is array (0 to mem_d_c - 1) of std_logic_vector(n_c - 1 downto 0);

  -- one-hot to binary (at most one bit set)
  function encode(v : std_logic_vector) return unsigned is
    alias x : std_logic_vector(n_c - 1 downto 0) is v;
    variable r : unsigned(idx_w_c - 1 downto 0) := (others => '0');
  begin
    for i in 0 to n_c - 1 loop
      if x(i) = '1' then
        r := r or to_unsigned(i, idx_w_c);
      end if;
    end loop;
    return r;
  end function;

  signal pay_mem  : pay_mem_t;
  signal next_mem : next_mem_t;
  signal valid    : std_logic_vector(n_c - 1 downto 0);
  signal head     : std_logic_vector(n_c - 1 downto 0);  -- (not for a new entry: nh_r)
  signal tail     : std_logic_vector(n_c - 1 downto 0);
  signal ids      : id_arr_t;

  -- stage 1: the incoming transactions and their ID compares
  signal o_hs_r   : std_logic;
  signal o_id_r   : std_logic_vector(id_w_g - 1 downto 0);
  signal c_hs_r   : std_logic;
  signal cl_r     : std_logic;                           -- close_hs and close_last
  signal cm_r     : std_logic_vector(n_c - 1 downto 0);  -- open, ids(i) = close_id
  signal om_r     : std_logic_vector(n_c - 1 downto 0);  -- open, ids(i) = open_id
  signal eq_r     : std_logic;                           -- close_id = the new entry's ID
  signal eqo_r    : std_logic;                           -- open_id = the new entry's ID
  signal eqco_r   : std_logic;                           -- close_id = open_id
  signal new_r    : std_logic_vector(n_c - 1 downto 0);  -- the entry taken at the last edge
  signal nh_r     : std_logic;                           -- ... is the head of its ID
  signal nany_r   : std_logic;                           -- an entry was taken at the last edge
  signal nidx_r   : unsigned(idx_w_c - 1 downto 0);      -- ... its index
  signal new_m    : std_logic;                           -- ... it is the closing one

  -- stage 2
  signal cm       : std_logic_vector(n_c - 1 downto 0);  -- open entry of the closing ID
  signal om       : std_logic_vector(n_c - 1 downto 0);  -- open entry of the opening ID
  signal match    : std_logic_vector(n_c - 1 downto 0);  -- head entry of the closing ID
  signal retire   : std_logic_vector(n_c - 1 downto 0);  -- ... closes now
  signal op_tail  : std_logic_vector(n_c - 1 downto 0);  -- tail of the opening ID
  signal low_free : std_logic_vector(n_c - 1 downto 0);  -- lowest entry not valid
  signal take     : std_logic_vector(n_c - 1 downto 0);  -- the entry the open takes
  signal full     : std_logic;                           -- every entry valid
  signal alloc    : std_logic;
  signal chain    : std_logic;                           -- the new entry queues behind op_tail
  signal kill     : std_logic;                           -- ... which closes now
  signal idx      : unsigned(idx_w_c - 1 downto 0);
  signal slot     : unsigned(idx_w_c - 1 downto 0);
  signal succ     : std_logic_vector(n_c - 1 downto 0);  -- next_mem(idx), one-hot
begin
  assert max_outstanding_g <= 32
    report "jointer_eig_id_table: max_outstanding_g must be 1..32" severity failure;

  ---------------------------------------------------------------------------
  -- stage 1: compare the incoming IDs with every entry's
  ---------------------------------------------------------------------------
  process (clk)
  begin
    if rising_edge(clk) then
      o_hs_r <= open_hs;
      o_id_r <= open_id;
      c_hs_r <= close_hs;
      cl_r   <= close_hs and close_last;
      -- open after this edge (an entry taken at it: new_r, eq_r, eqo_r)
      for i in 0 to n_c - 1 loop
        cm_r(i) <= valid(i) and not retire(i) and to_sl(ids(i) = close_id);
        om_r(i) <= valid(i) and not retire(i) and to_sl(ids(i) = open_id);
      end loop;
      eq_r   <= to_sl(o_id_r = close_id);
      eqo_r  <= to_sl(o_id_r = open_id);
      eqco_r <= to_sl(open_id = close_id);
      if rst = '1' then
        o_hs_r <= '0';
        c_hs_r <= '0';
        cl_r   <= '0';
        cm_r   <= (others => '0');
        om_r   <= (others => '0');
      end if;
    end if;
  end process;

  ---------------------------------------------------------------------------
  -- stage 2: search, read, update
  ---------------------------------------------------------------------------
  g_entry : for i in 0 to n_c - 1 generate
    -- (cm_r and om_r are 0 for the new entry: it was free when they were set)
    cm(i)      <= (new_r(i) and eq_r) or cm_r(i);
    om(i)      <= (new_r(i) and eqo_r) or om_r(i);
    match(i)   <= (new_r(i) and eq_r and nh_r) or (cm_r(i) and head(i));
    retire(i)  <= match(i) and cl_r;
    -- the tail even when it closes now (kill): the link written behind it is never read
    op_tail(i) <= om(i) and tail(i);
  end generate g_entry;
  low_free(0) <= not valid(0);
  g_free : for i in 1 to n_c - 1 generate
    low_free(i) <= not valid(i) and (and valid(i - 1 downto 0));
  end generate g_free;

  full  <= and valid;
  -- the lowest free entry; with all taken, the one closing now
  take  <= retire when full = '1' else low_free;
  alloc <= o_hs_r and (not full or (or retire));
  chain <= or op_tail;
  kill  <= eqco_r and cl_r and (or (match and tail));
  hit   <= c_hs_r and (or match);
  -- encode(match), the new entry's index from a register: two LUTs deep
  new_m <= nany_r and eq_r and nh_r;
  process (all)
    variable v : unsigned(idx_w_c - 1 downto 0);
  begin
    v := encode(cm_r and head);
    for b in 0 to idx_w_c - 1 loop
      v(b) := v(b) or (new_m and nidx_r(b));
    end loop;
    idx <= v;
  end process;
  slot  <= idx when full = '1' else encode(low_free);

  succ    <= next_mem(to_integer(idx));
  hit_pay <= pay_mem(to_integer(idx));

  process (clk)
  begin
    if rising_edge(clk) then
      -- per entry with static indices (GHDL 2.0 synth turns an array
      -- register written only at a computed index into a loop)
      for i in 0 to n_c - 1 loop
        -- head(i) <= eh(i) or promoted: the next one of the closing ID is now
        -- the oldest (a stale successor of an entry without one is never an
        -- open entry of that ID that is not its head; an entry not open may
        -- be marked, its flag is rewritten when it is taken). As a set over
        -- an enable: one LUT after the successor read.
        if new_r(i) = '1' then
          head(i) <= nh_r;
        end if;
        if cl_r = '1' and cm(i) = '1' and succ(i) = '1' then
          head(i) <= '1';
        end if;
        if retire(i) = '1' then
          valid(i) <= '0';
        end if;
        if alloc = '1' and op_tail(i) = '1' then
          tail(i) <= '0';                           -- the new entry queues behind it
        end if;
        new_r(i) <= '0';
        if alloc = '1' and take(i) = '1' then
          valid(i) <= '1';
          ids(i)   <= o_id_r;
          tail(i)  <= '1';
          new_r(i) <= '1';
        end if;
      end loop;
      nh_r   <= not chain or kill;
      nany_r <= alloc;
      nidx_r <= slot;
      if alloc = '1' then
        pay_mem(to_integer(slot)) <= open_pay;
      end if;
      if alloc = '1' and chain = '1' then
        next_mem(to_integer(encode(op_tail))) <= take;
      end if;
      if rst = '1' then
        valid  <= (others => '0');
        new_r  <= (others => '0');
        nany_r <= '0';
      end if;
    end if;
  end process;

end architecture rtl;
